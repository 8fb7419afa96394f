import { Calendar, Hash, ToggleLeft, Type } from 'lucide-react';
import type { PropertyValueType } from '@/contract/definitions';

const ICONS = { String: Type, Numeric: Hash, Boolean: ToggleLeft, DateTime: Calendar } as const;

/** The value type of a property key, as an icon and its word (String, Numeric, Boolean, DateTime). */
export function PropertyTypeBadge({ type }: { type: PropertyValueType | null }) {
  if (type === null) return null;
  const Icon = ICONS[type];
  return (
    <span className="inline-flex shrink-0 items-center gap-1 rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700 dark:bg-gray-800 dark:text-gray-300">
      <Icon aria-hidden className="size-3" />
      {type}
    </span>
  );
}
