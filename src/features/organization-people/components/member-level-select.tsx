import { useId } from 'react';
import { levelChangeRefusal, memberEndpoints, type Member, type MemberRuleInput } from '@/contract/members';
import { useCan } from '@/lib/auth';
import { LEVELS, type LevelValue } from './levels';

interface MemberLevelSelectProps {
  member: Member;
  rule: MemberRuleInput;
  name: string;
  pending: boolean;
  /** Returns false when the change waits for a confirmation: the select shows the member's level meanwhile. */
  onChange: (level: LevelValue) => boolean | void;
}

/**
 * The member's level as a select. Levels the rules refuse are disabled options; when every other
 * level is refused (or the key lacks the scope) the select is disabled and the reason is shown.
 */
export function MemberLevelSelect({ member, rule, name, pending, onChange }: MemberLevelSelectProps) {
  const id = useId();
  const { allowed, reason: scopeReason } = useCan(memberEndpoints.update.access);
  const refusals = new Map(
    LEVELS.map((l) => [l.value, l.value === member.level ? null : levelChangeRefusal(rule, l.value)]),
  );
  const others = LEVELS.filter((l) => l.value !== member.level);
  const everyRefused = others.every((l) => refusals.get(l.value) !== null);
  const reason = !allowed ? scopeReason : everyRefused ? refusals.get(others[0]!.value)!.detail : null;
  return (
    <div className="flex flex-col gap-1">
      <select
        aria-label={`Level of ${name}`}
        aria-describedby={reason ? `${id}-reason` : undefined}
        className="h-8 rounded-md border border-gray-300 bg-white px-2 text-sm disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-600 dark:bg-gray-900"
        value={member.level}
        // While a change saves it stays enabled (disabling would drop the keyboard's focus) and
        // takes no other change: aria-disabled says so, the value stays the member's.
        disabled={reason !== null}
        aria-disabled={pending || undefined}
        onChange={(event) => {
          // Ignored while saving: a controlled select shows the member's level again.
          if (!pending) onChange(Number(event.currentTarget.value) as LevelValue);
        }}
      >
        {LEVELS.map((l) => (
          <option key={l.value} value={l.value} disabled={refusals.get(l.value) !== null}>
            {l.label}
          </option>
        ))}
      </select>
      {reason ? (
        <span id={`${id}-reason`} className="max-w-56 text-xs text-gray-600 dark:text-gray-400">
          {reason}
        </span>
      ) : null}
    </div>
  );
}
