import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { toast } from '@/lib/toast';
import { memberEndpoints, removalRefusal, type Member, type MemberRuleInput } from '@/contract/members';
import { ConfirmDelete } from '@/components/feedback/confirm-delete';
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
  const { mutateAsync } = useMutation(peopleMutations.removeMember(organizationId));
  const refusal = removalRefusal(rule);
  if (refusal) {
    return <span className="text-xs text-gray-600 dark:text-gray-400">{refusal.detail}</span>;
  }
  const self = rule.isSelf;
  return (
    <ConfirmDelete
      triggerLabel={self ? 'Leave' : 'Remove'}
      scope={memberEndpoints.destroy.access}
      title={self ? `Leave ${organizationName}` : `Remove ${name}`}
      description={
        self ? (
          <>You lose access to <strong>{organizationName}</strong>. Your personal API keys stop working for it at once.</>
        ) : (
          <>
            <strong>{name}</strong> ({member.user.email}) loses access to <strong>{organizationName}</strong>. Their personal API
            keys stop working for this organization at once.
          </>
        )
      }
      confirmLabel={self ? 'Leave organization' : `Remove ${name}`}
      onConfirm={async () => {
        await mutateAsync(member.user.uuid);
        toast.success(self ? `You left ${organizationName}` : `${name} was removed from ${organizationName}`);
        if (self) await navigate({ to: '/organizations' });
      }}
    />
  );
}
