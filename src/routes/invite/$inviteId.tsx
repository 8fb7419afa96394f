import { createFileRoute } from '@tanstack/react-router';
import { AcceptInvitePage } from '@/features/organization-people/components/accept-invite-page';

/** An invite's accept link: public, outside `_authed` (the invitee has no key yet). */
export const Route = createFileRoute('/invite/$inviteId')({
  staticData: { title: 'Join an organization' },
  component: AcceptInviteRoute,
});

function AcceptInviteRoute() {
  const { inviteId } = Route.useParams();
  return <AcceptInvitePage inviteId={inviteId} />;
}
