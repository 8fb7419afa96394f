import { createFileRoute } from '@tanstack/react-router';
import { peopleQueries } from '@/features/organization-people/api/people.queries';
import { InviteForm } from '@/features/organization-people/components/invite-form';

export const Route = createFileRoute('/_authed/organizations/$organizationId/invites/new')({
  staticData: { crumb: 'Invite people' },
  // The loader (and the queries it imports) ships with the page's code, not in the entry.
  codeSplitGroupings: [['loader', 'component']],
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(peopleQueries.organization(params.organizationId)),
  component: InviteForm,
});
