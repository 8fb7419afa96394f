import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { organizationScope } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { memberEndpoints, removalRefusal, type Member, type MemberRuleInput } from '@/contract/members';
import { ConfirmDelete } from '@/components/feedback/confirm-delete';
import { peopleKeys } from '../api/people.keys';
import { peopleMutations } from '../api/people.mutations';

interface RemoveMemberProps {
  organizationId: string;
  organizationName: string;
  member: Member;
  name: string;
  rule: MemberRuleInput;
}

/** "Remove" (or "Leave" for oneself) behind a confirm that says the member's keys stop working. */
export function RemoveMember({ organizationId, organizationName, member, name, rule }: RemoveMemberProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { mutateAsync } = useMutation(peopleMutations.removeMember(organizationId));
  const refusal = removalRefusal(rule);
  if (refusal) {
    return <span className="text-xs text-gray-600 dark:text-gray-400">{refusal.detail}</span>;
  }
  const self = rule.isSelf;
  return (
    <ConfirmDelete
      triggerLabel={self ? 'Leave' : 'Remove'}
      triggerName={self ? `Leave ${organizationName}` : `Remove ${name}`}
      scope={memberEndpoints.destroy.access}
      title={self ? `Leave ${organizationName}` : `Remove ${name}`}
      description={
        self ? (
          <>
            You lose access to <strong>{organizationName}</strong>. Your personal API keys stop working for it at once.
          </>
        ) : (
          <>
            <strong>{name}</strong> ({member.user.email}) loses access to <strong>{organizationName}</strong>. Their
            personal API keys stop working for this organization at once.
          </>
        )
      }
      confirmLabel={self ? 'Leave organization' : `Remove ${name}`}
      onConfirm={async () => {
        await mutateAsync(member.user.uuid);
        toast.success(self ? `You left ${organizationName}` : `${name} was removed from ${organizationName}`);
        if (!self) return;
        // The organizations page opens without it: its lists (not on screen, so only marked stale
        // by the removal) are fetched again first. What was cached about the organization is
        // forgotten once its pages are left.
        await queryClient.refetchQueries({ queryKey: peopleKeys.organizationLists(), type: 'all' });
        await navigate({ to: '/organizations' });
        queryClient.removeQueries({ queryKey: organizationScope(organizationId) });
      }}
    />
  );
}
