import { cn } from '@/components/ui/cn';
import type { GroupType } from './filter-model';

const WORDS: Record<GroupType, string> = { AND: 'AND', OR: 'OR' };
const TITLES: Record<GroupType, string> = { AND: 'All must match', OR: 'Any may match' };

/** AND / OR as two pressed-or-not buttons, named by what they combine. */
export function GroupTypeToggle({
  value,
  onChange,
  label,
}: {
  value: GroupType;
  onChange: (t: GroupType) => void;
  label: string;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className="inline-flex rounded-md border border-gray-300 p-0.5 dark:border-gray-600"
    >
      {(['AND', 'OR'] as const).map((t) => (
        <button
          key={t}
          type="button"
          aria-pressed={value === t}
          title={TITLES[t]}
          onClick={() => onChange(t)}
          className={cn(
            'rounded px-2 py-0.5 text-xs font-semibold',
            value === t
              ? 'bg-indigo-600 text-white'
              : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800',
          )}
        >
          {WORDS[t]}
        </button>
      ))}
    </div>
  );
}
