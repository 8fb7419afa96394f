import { X } from 'lucide-react';
import { memo, useId, useState } from 'react';
import { ANALYTICS_LIMITS, type TrendParamsInput } from '@/contract/analytics-params';
import { cn } from '@/components/ui/cn';
import { HogqlField } from '../field-parts';
import { FieldError } from './picker-trigger';
import type { ErrorFor } from './property-filters';
import {
  PropertyKeyPicker, type CohortKey, type GroupKey, type HogqlKey, type PropertyKey, type SessionKey,
} from './property-key-picker';

const BREAKDOWN_KINDS = ['event', 'person', 'session', 'group', 'cohort', 'hogql'] as const;
type BreakdownKey = PropertyKey | CohortKey | GroupKey | SessionKey | HogqlKey;

/**
 * The breakdown fields of trend and funnel parameters, as the contract types them (so a panel
 * passes its state in and spreads the answer back). This control sets property breakdowns
 * (`event` / `person`, or a group type's with `breakdown_group_type_index`) and a cohort
 * breakdown: one cohort, `[id]`, or `["all", id]` to compare its persons with everyone. A session
 * property is `breakdown_type: session`; a HogQL breakdown is its expression, typed in a field of its
 * own (the key stays empty, and unsent, until something is typed).
 */
export type BreakdownValue = Pick<TrendParamsInput, 'breakdown' | 'breakdown_type' | 'breakdown_limit' | 'breakdown_group_type_index'>;

export interface BreakdownControlProps {
  projectId: number;
  value: BreakdownValue;
  onChange: (next: BreakdownValue) => void;
  errorFor?: ErrorFor;
  /** The limit shown while none is set (trends 25, funnels 10). */
  defaultLimit: number;
}

const MAX = ANALYTICS_LIMITS.breakdownLimit;

/** "Breakdown by" a property (event or person), remove it, and how many values to show. */
export const BreakdownControl = memo(function BreakdownControl({ projectId, value, onChange, errorFor, defaultLimit }: BreakdownControlProps) {
  const limitId = useId();
  const cohort = value.breakdown_type === 'cohort';
  // A cohort breakdown's cohort: its listed id (beside "all" when it is compared with everyone).
  const listed = cohort && Array.isArray(value.breakdown) ? value.breakdown : null;
  const withAll = listed?.includes('all') ?? false;
  const key = listed ? (listed.filter((v) => v !== 'all').map(String)[0] ?? null) : breakdownKey(value.breakdown);
  const allId = useId();
  const limit = value.breakdown_limit ?? defaultLimit;
  const [draft, setDraft] = useState(String(limit));
  const [seen, setSeen] = useState(limit);
  if (seen !== limit) {
    setSeen(limit);
    setDraft(String(limit));
  }
  const n = Number(draft);
  const draftValid = draft.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= MAX;
  const limitError = (draftValid ? undefined : `Enter a whole number from 1 to ${MAX}.`) ?? errorFor?.('breakdown_limit');
  const keyError = errorFor?.('breakdown') ?? errorFor?.('breakdown_type') ?? errorFor?.('breakdown_group_type_index');
  const hogql = value.breakdown_type === 'hogql';
  // The expression while it is written: an empty one is not sent (the state has no breakdown).
  const [writing, setWriting] = useState<string | null>(null);
  const expression = hogql ? (typeof value.breakdown === 'string' ? value.breakdown : '') : key === null ? writing : null;
  const setExpression = (text: string) => {
    setWriting(text);
    onChange(text.trim()
      ? { ...value, breakdown: text, breakdown_type: 'hogql', breakdown_limit: value.breakdown_limit ?? defaultLimit, breakdown_group_type_index: undefined }
      : { breakdown: null, breakdown_type: undefined, breakdown_limit: undefined, breakdown_group_type_index: undefined });
  };
  const hogqlShown = expression !== null;

  return (
    <div className="flex flex-wrap items-start gap-2">
      <PropertyKeyPicker<BreakdownKey>
        projectId={projectId}
        value={hogqlShown ? { key: expression, type: 'hogql' } : key === null ? null : keyOf(key, value)}
        onChange={(k) => {
          if (k.type === 'hogql') {
            setExpression(k.key || expression || '');
            return;
          }
          setWriting(null);
          onChange(k.type === 'cohort'
          ? { breakdown: withAll ? ['all', Number(k.key)] : [Number(k.key)], breakdown_type: 'cohort', breakdown_limit: undefined }
          : {
            ...value, breakdown: k.key, breakdown_type: k.type, breakdown_limit: value.breakdown_limit ?? defaultLimit,
            breakdown_group_type_index: k.type === 'group' ? k.group_type_index : undefined,
          });
        }}
        types={BREAKDOWN_KINDS}
        label="Breakdown by"
        placeholder="Add breakdown"
        // A HogQL breakdown's error shows under its expression.
        error={hogqlShown ? undefined : keyError}
      />
      {hogqlShown ? (
        <HogqlField label="Breakdown HogQL expression" hideLabel className="basis-full" value={expression} error={keyError}
          placeholder="properties.$browser" hint="Each event's breakdown value, e.g. lower(properties.$browser)."
          onChange={setExpression} />
      ) : null}
      {key !== null && cohort ? (
        <>
          <RemoveBreakdown onChange={onChange} />
          <label htmlFor={allId} className="inline-flex h-8 items-center gap-1.5 text-sm text-gray-700 dark:text-gray-300">
            <input id={allId} type="checkbox" checked={withAll}
              onChange={(e) => onChange({ breakdown: e.target.checked ? ['all', Number(key)] : [Number(key)], breakdown_type: 'cohort', breakdown_limit: undefined })} />
            Compare with all users
          </label>
        </>
      ) : null}
      {hogqlShown && key === null ? <RemoveBreakdown onChange={(next) => { setWriting(null); onChange(next); }} /> : null}
      {key !== null && !cohort ? (
        <>
          <RemoveBreakdown onChange={(next) => { setWriting(null); onChange(next); }} />
          <div className="flex flex-col gap-1">
            <div className="flex items-center gap-1.5">
              <label htmlFor={limitId} className="text-sm text-gray-700 dark:text-gray-300">
                Show top
              </label>
              <input
                id={limitId}
                type="number"
                min={1}
                max={MAX}
                step={1}
                inputMode="numeric"
                aria-describedby={limitError ? `${limitId}-error` : undefined}
                aria-invalid={limitError ? true : undefined}
                value={draft}
                onChange={(e) => {
                  setDraft(e.target.value);
                  const next = Number(e.target.value);
                  if (e.target.value.trim() !== '' && Number.isInteger(next) && next >= 1 && next <= MAX) onChange({ ...value, breakdown_limit: next });
                }}
                className={cn(
                  'h-8 w-20 rounded-md border bg-white px-2 text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100',
                  limitError ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
                )}
              />
              <span className="text-sm text-gray-700 dark:text-gray-300">values</span>
            </div>
            <FieldError id={`${limitId}-error`} message={limitError} />
          </div>
        </>
      ) : null}
    </div>
  );
});

function RemoveBreakdown({ onChange }: { onChange: (next: BreakdownValue) => void }) {
  return (
    <button
      type="button"
      aria-label="Remove breakdown"
      title="Remove breakdown"
      onClick={() => onChange({ breakdown: null, breakdown_type: undefined, breakdown_limit: undefined, breakdown_group_type_index: undefined })}
      className="inline-flex size-8 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100"
    >
      <X aria-hidden className="size-4" />
    </button>
  );
}

/** The picker's value of a breakdown whose key is `key`: whose property it is. */
function keyOf(key: string, value: BreakdownValue): BreakdownKey {
  if (value.breakdown_type === 'cohort') return { key, type: 'cohort' };
  if (value.breakdown_type === 'group' && typeof value.breakdown_group_type_index === 'number') return { key, type: 'group', group_type_index: value.breakdown_group_type_index };
  if (value.breakdown_type === 'session' || value.breakdown_type === 'hogql') return { key, type: value.breakdown_type };
  return { key, type: value.breakdown_type === 'person' ? 'person' : 'event' };
}

/** The breakdown as a key to show: a property name, or cohort ids as text. */
function breakdownKey(b: BreakdownValue['breakdown']): string | null {
  if (b === null || b === undefined || b === '') return null;
  if (Array.isArray(b)) return b.length ? b.join(', ') : null;
  return String(b);
}
