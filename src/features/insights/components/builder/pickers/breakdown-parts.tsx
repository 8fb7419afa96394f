import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import {
  ANALYTICS_LIMITS,
  type BreakdownEntryInput as BreakdownEntry,
  type TrendParamsInput,
} from '@/contract/analytics-params';
import { cn } from '@/components/ui/cn';
import { definitionQueries } from '../../../api/definitions.queries';
import { FieldError } from './picker-trigger';
import {
  PropertyKeyPicker,
  SESSION_PROPERTIES,
  type GroupKey,
  type PropertyKey,
  type SessionKey,
} from './property-key-picker';

/**
 * The breakdown fields of trend and funnel parameters, as the contract types them (so a panel
 * passes its state in and spreads the answer back).
 */
export type BreakdownValue = Pick<
  TrendParamsInput,
  | 'breakdown'
  | 'breakdown_type'
  | 'breakdown_limit'
  | 'breakdown_group_type_index'
  | 'breakdowns'
  | 'breakdown_histogram_bin_count'
>;

/** What an entry of several breakdowns may be picked as (a cohort does not combine; HogQL is typed). */
export type EntryKey = PropertyKey | GroupKey | SessionKey;
export const ENTRY_KINDS = ['event', 'person', 'session', 'group'] as const;

/** The contract's entry of `breakdowns` for a picked key. */
export const entryOf = (k: EntryKey, bins?: number | null): BreakdownEntry => ({
  property: k.key,
  type: k.type,
  ...(k.type === 'group' ? { group_type_index: k.group_type_index } : {}),
  ...(bins ? { histogram_bin_count: bins } : {}),
});

const fieldClasses = (invalid: boolean, width: string) =>
  cn(
    `h-8 ${width} rounded-md border bg-white px-2 text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100`,
    invalid ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
  );

/**
 * A whole number from 1 to `max` typed freely: each valid one reaches `onChange`; anything else
 * stays in the box with its message (and is not sent).
 */
function useWholeDraft(value: number, max: number, message: string) {
  const [draft, setDraft] = useState(String(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(String(value));
  }
  const n = Number(draft);
  const valid = draft.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= max;
  const accept = (text: string, onChange: (n: number) => void) => {
    setDraft(text);
    const next = Number(text);
    if (text.trim() !== '' && Number.isInteger(next) && next >= 1 && next <= max) onChange(next);
  };
  return { draft, error: valid ? undefined : message, accept };
}

/** "Show top N values": how many breakdown values keep a series of their own. */
export function LimitField({
  value,
  max,
  error,
  onChange,
}: {
  value: number;
  max: number;
  error: string | undefined;
  onChange: (n: number) => void;
}) {
  const id = useId();
  const d = useWholeDraft(value, max, `Enter a whole number from 1 to ${max}.`);
  const message = d.error ?? error;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-1.5">
        <label htmlFor={id} className="text-sm text-gray-700 dark:text-gray-300">
          Show top
        </label>
        <input
          id={id}
          type="number"
          min={1}
          max={max}
          step={1}
          inputMode="numeric"
          aria-describedby={message ? `${id}-error` : undefined}
          aria-invalid={message ? true : undefined}
          value={d.draft}
          onChange={(e) => d.accept(e.target.value, onChange)}
          className={fieldClasses(Boolean(message), 'w-20')}
        />
        <span className="text-sm text-gray-700 dark:text-gray-300">values</span>
      </div>
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

const MAX_BINS = ANALYTICS_LIMITS.histogramBins;
const DEFAULT_BINS = 10;

/**
 * "Bin into N buckets" for a numeric breakdown (docs/api.md, "Breakdowns"): a checkbox, then how
 * many equal-width buckets. `name` tells the breakdowns apart ("breakdown 2").
 */
export function BinsField({
  name,
  value,
  error,
  onChange,
}: {
  name: string;
  value: number | null | undefined;
  error: string | undefined;
  onChange: (bins: number | undefined) => void;
}) {
  const id = useId();
  const on = typeof value === 'number';
  const d = useWholeDraft(
    on ? value : DEFAULT_BINS,
    MAX_BINS,
    `Enter a whole number of buckets from 1 to ${MAX_BINS}.`,
  );
  const message = on ? (d.error ?? error) : undefined;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-1.5 text-sm text-gray-700 dark:text-gray-300">
        <label htmlFor={`${id}-on`} className="inline-flex items-center gap-1.5">
          <input
            id={`${id}-on`}
            type="checkbox"
            checked={on}
            onChange={(e) => onChange(e.target.checked ? DEFAULT_BINS : undefined)}
          />
          Bin {name} into buckets
        </label>
        {on ? (
          <input
            type="number"
            min={1}
            max={MAX_BINS}
            step={1}
            inputMode="numeric"
            aria-label={`Number of buckets for ${name}`}
            aria-describedby={message ? `${id}-error` : undefined}
            aria-invalid={message ? true : undefined}
            value={d.draft}
            onChange={(e) => d.accept(e.target.value, onChange)}
            className={fieldClasses(Boolean(message), 'w-20')}
          />
        ) : null}
      </div>
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

/** Whether a breakdown's values are numbers, as the project's definitions say (HogQL may be). */
export function useNumericBreakdown(projectId: number, type: string | null | undefined, key: string | null): boolean {
  const listed = (type === 'event' || type === 'person') && key !== null && key !== '';
  const query = useQuery({
    ...definitionQueries.properties(projectId, {
      type: type === 'person' ? 'person' : 'event',
      search: key ?? '',
      numericOnly: true,
    }),
    enabled: listed,
  });
  if (type === 'session') return SESSION_PROPERTIES.some((p) => p.name === key && p.property_type === 'Numeric');
  if (type === 'hogql') return key !== null && key !== '';
  return listed && (query.data?.results ?? []).some((d) => d.name === key);
}

/** A remove button, named for what it removes ("Remove breakdown 2"). */
export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className="inline-flex size-8 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100"
    >
      <X aria-hidden className="size-4" />
    </button>
  );
}

/** "Add breakdown": a picker for the next breakdown, open at once, until one is picked or it is cancelled. */
export function AddBreakdown({
  projectId,
  position,
  onAdd,
}: {
  projectId: number;
  position: number;
  onAdd: (k: EntryKey) => void;
}) {
  const [adding, setAdding] = useState(false);
  if (!adding) {
    return (
      <button
        type="button"
        onClick={() => setAdding(true)}
        className="h-8 rounded-md border border-dashed border-gray-400 px-2 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-600 dark:text-gray-300 dark:hover:bg-gray-800"
      >
        Add breakdown
      </button>
    );
  }
  return (
    <div className="flex basis-full items-start gap-2">
      <PropertyKeyPicker<EntryKey>
        projectId={projectId}
        value={null}
        types={ENTRY_KINDS}
        defaultOpen
        label={`Breakdown ${position} by`}
        placeholder="Choose a property"
        onChange={(k) => {
          setAdding(false);
          onAdd(k);
        }}
      />
      <RemoveButton label={`Remove breakdown ${position}`} onClick={() => setAdding(false)} />
    </div>
  );
}
