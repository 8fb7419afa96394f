import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { RotateCw } from 'lucide-react';
import { useMemo } from 'react';
import { toast } from '@/lib/toast';
import { inviteEndpoints, type Invite } from '@/contract/invites';
import { userDisplayName } from '@/contract/users';
import { ConfirmDelete } from '@/components/feedback/confirm-delete';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { ListPage, PrimaryAction, usePageSearch, type Column } from '@/components/list-kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';
import { describeError } from '@/lib/error-messages';
import { peopleMutations } from '../api/people.mutations';
import { peopleQueries } from '../api/people.queries';
import { inviteExpiry, levelLabel } from './levels';
import { invitesHeader } from './organization-people-page-states';

const route = getRouteApi('/_authed/organizations/$organizationId/invites/');

function Revoke({ organizationId, invite }: { organizationId: string; invite: Invite }) {
  const { mutateAsync } = useMutation(peopleMutations.revokeInvite(organizationId));
  return (
    <ConfirmDelete
      triggerLabel="Revoke"
      triggerName={`Revoke the invite to ${invite.target_email}`}
      scope={inviteEndpoints.destroy.access}
      title={`Revoke the invite to ${invite.target_email}`}
      description={
        <>
          The link sent to <strong>{invite.target_email}</strong> stops working.
        </>
      }
      confirmLabel="Revoke invite"
      onConfirm={async () => {
        await mutateAsync(invite.id);
        toast.success(`Invite to ${invite.target_email} revoked`);
      }}
    />
  );
}

function inviteColumns(
  organizationId: string,
  resend: (invite: Invite) => void,
  resending: string | undefined,
): Column<Invite>[] {
  return [
    { header: 'Email', className: 'break-all font-medium', cell: (i) => i.target_email },
    { header: 'Name', cell: (i) => i.first_name || '—' },
    { header: 'Level', cell: (i) => levelLabel(i.level) },
    {
      header: 'Invited',
      className: 'whitespace-nowrap',
      cell: (i) => (
        <span>
          <RelativeTime value={i.created_at} />
          {i.created_by ? (
            <span className="text-gray-600 dark:text-gray-400"> by {userDisplayName(i.created_by)}</span>
          ) : null}
        </span>
      ),
    },
    {
      header: 'Status',
      cell: (i) => {
        const { expired, text } = inviteExpiry(i);
        return <Badge tone={expired ? 'danger' : 'info'}>{text}</Badge>;
      },
    },
    {
      header: 'Actions',
      cell: (i) => (
        <span className="flex flex-wrap gap-2">
          <ScopedAction scope={inviteEndpoints.create.access}>
            <Button
              size="sm"
              onClick={() => resend(i)}
              disabled={resending === i.target_email}
              aria-label={`Resend the invite to ${i.target_email}`}
            >
              <RotateCw aria-hidden="true" className="size-4" />
              Resend
            </Button>
          </ScopedAction>
          <Revoke organizationId={organizationId} invite={i} />
        </span>
      ),
    },
  ];
}

const inviteId = (i: Invite) => i.id;

/** Pending and expired invites, with resend (a new invite replacing the old) and revoke. */
export function InvitesPage() {
  const { organizationId } = route.useParams();
  const navigate = route.useNavigate();
  const { params } = usePageSearch();
  const { data } = useSuspenseQuery(peopleQueries.invites(organizationId, params));
  const { mutate: resend, isPending, variables } = useMutation(peopleMutations.invite(organizationId));
  const resending = isPending ? variables.target_email : undefined;
  const columns = useMemo(
    () =>
      inviteColumns(
        organizationId,
        (invite) =>
          resend(
            {
              target_email: invite.target_email,
              first_name: invite.first_name ?? '',
              level: invite.level as 1 | 8 | 15,
              message: invite.message,
            },
            {
              onSuccess: () => toast.success(`A new invite was sent to ${invite.target_email}`),
              onError: (error) => toast.error(`Couldn't resend the invite: ${describeError(error)}`),
            },
          ),
        resending,
      ),
    [organizationId, resend, resending],
  );
  return (
    <ListPage
      {...invitesHeader}
      action={
        <PrimaryAction
          scope={inviteEndpoints.bulk.access}
          onClick={() =>
            void navigate({ to: '/organizations/$organizationId/invites/new', params: { organizationId } })
          }
        >
          Invite people
        </PrimaryAction>
      }
      data={data}
      columns={columns}
      getRowId={inviteId}
      empty={{ title: 'No pending invites', children: 'Use “Invite people” to invite one person or many at once.' }}
    />
  );
}
