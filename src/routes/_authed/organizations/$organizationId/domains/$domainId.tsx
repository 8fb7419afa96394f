import { createFileRoute } from '@tanstack/react-router';
import { peopleQueries } from '@/features/organization-people/api/people.queries';
import { DomainDetail } from '@/features/organization-people/components/domain-detail';

export const Route = createFileRoute('/_authed/organizations/$organizationId/domains/$domainId')({
  staticData: { crumb: 'Domain' },
  // The loader (and the queries it imports) ships with the page's code, not in the entry.
  codeSplitGroupings: [['loader', 'component']],
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(peopleQueries.domain(params.organizationId, params.domainId)),
  component: DomainDetail,
});
