import { createFileRoute } from '@tanstack/react-router';
import { peopleQueries } from '@/features/organization-people/api/people.queries';
import { DomainDetail } from '@/features/organization-people/components/domain-detail';
import { DomainName } from '@/features/organization-people/components/domain-name';

export const Route = createFileRoute('/_authed/organizations/$organizationId/domains/$domainId')({
  staticData: {
    crumb: ({ params }) => (
      <DomainName organizationId={String(params.organizationId)} domainId={String(params.domainId)} />
    ),
  },
  // The loader (and the queries it imports) ships with the page's code, not in the entry.
  codeSplitGroupings: [['loader', 'component']],
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(peopleQueries.domain(params.organizationId, params.domainId)),
  component: DomainDetail,
});
