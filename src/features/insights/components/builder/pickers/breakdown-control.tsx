import { memo, useId, useState } from 'react';
import { ANALYTICS_LIMITS } from '@/contract/analytics-params';
import { HogqlField } from '../field-parts';
import type { ErrorFor } from './property-filters';
import {
  AddBreakdown,
  BinsField,
  entryOf,
  LimitField,
  RemoveButton,
  useNumericBreakdown,
  type BreakdownValue,
} from './breakdown-parts';
import { BreakdownList } from './breakdown-list';
import {
  PropertyKeyPicker,
  type CohortKey,
  type GroupKey,
  type HogqlKey,
  type PropertyKey,
  type SessionKey,
} from './property-key-picker';

const BREAKDOWN_KINDS = ['event', 'person', 'session', 'group', 'cohort', 'hogql'] as const;
type BreakdownKey = PropertyKey | CohortKey | GroupKey | SessionKey | HogqlKey;

export type { BreakdownValue } from './breakdown-parts';

/**
 * The breakdown control sets property breakdowns
 * (`event` / `person`, or a group type's with `breakdown_group_type_index`) and a cohort
 * breakdown: one cohort, `[id]`, or `["all", id]` to compare its persons with everyone. A session
 * property is `breakdown_type: session`; a HogQL breakdown is its expression, typed in a field of its
 * own (the key stays empty, and unsent, until something is typed). It adds up to 3
 * breakdowns at once (breakdown-list.tsx), and a numeric one may be binned.
 */
export interface BreakdownControlProps {
  projectId: number;
  value: BreakdownValue;
  onChange: (next: BreakdownValue) => void;
  errorFor?: ErrorFor;
  /** The limit shown while none is set (trends 25, funnels and retention 10). */
  defaultLimit: number;
}

/** No breakdown at all. */
const CLEARED: BreakdownValue = {
  breakdown: null,
  breakdown_type: undefined,
  breakdown_limit: undefined,
  breakdown_group_type_index: undefined,
  breakdown_histogram_bin_count: undefined,
  breakdowns: undefined,
};

const MAX = ANALYTICS_LIMITS.breakdownLimit;

/** "Breakdown by" a property (event or person), remove it, and how many values to show. */
export const BreakdownControl = memo(function BreakdownControl(props: BreakdownControlProps) {
  return props.value.breakdowns?.length ? (
    <BreakdownList
      projectId={props.projectId}
      value={props.value}
      onChange={props.onChange}
      errorFor={props.errorFor}
      defaultLimit={props.defaultLimit}
    />
  ) : (
    <SingleBreakdown {...props} />
  );
});

function SingleBreakdown({ projectId, value, onChange, errorFor, defaultLimit }: BreakdownControlProps) {
  const cohort = value.breakdown_type === 'cohort';
  // A cohort breakdown's cohort: its listed id (beside "all" when it is compared with everyone).
  const listed = cohort && Array.isArray(value.breakdown) ? value.breakdown : null;
  const withAll = listed?.includes('all') ?? false;
  const key = listed ? (listed.filter((v) => v !== 'all').map(String)[0] ?? null) : breakdownKey(value.breakdown);
  const allId = useId();
  const limit = value.breakdown_limit ?? defaultLimit;
  const keyError = errorFor?.('breakdown') ?? errorFor?.('breakdown_type') ?? errorFor?.('breakdown_group_type_index');
  const hogql = value.breakdown_type === 'hogql';
  // The expression while it is written: an empty one is not sent (the state has no breakdown).
  const [writing, setWriting] = useState<string | null>(null);
  const expression = hogql
    ? typeof value.breakdown === 'string'
      ? value.breakdown
      : ''
    : key === null
      ? writing
      : null;
  const setExpression = (text: string) => {
    setWriting(text);
    onChange(
      text.trim()
        ? {
            ...value,
            breakdown: text,
            breakdown_type: 'hogql',
            breakdown_limit: value.breakdown_limit ?? defaultLimit,
            breakdown_group_type_index: undefined,
          }
        : CLEARED,
    );
  };
  const hogqlShown = expression !== null;
  const numeric = useNumericBreakdown(projectId, value.breakdown_type, key);
  const remove = (next: BreakdownValue) => {
    setWriting(null);
    onChange(next);
  };

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
          onChange(
            k.type === 'cohort'
              ? {
                  breakdown: withAll ? ['all', Number(k.key)] : [Number(k.key)],
                  breakdown_type: 'cohort',
                  breakdown_limit: undefined,
                }
              : {
                  ...value,
                  breakdown: k.key,
                  breakdown_type: k.type,
                  breakdown_limit: value.breakdown_limit ?? defaultLimit,
                  breakdown_group_type_index: k.type === 'group' ? k.group_type_index : undefined,
                  breakdown_histogram_bin_count: undefined,
                },
          );
        }}
        types={BREAKDOWN_KINDS}
        label="Breakdown by"
        placeholder="Add breakdown"
        // A HogQL breakdown's error shows under its expression.
        error={hogqlShown ? undefined : keyError}
      />
      {hogqlShown ? (
        <HogqlField
          label="Breakdown HogQL expression"
          hideLabel
          className="basis-full"
          value={expression}
          error={keyError}
          placeholder="properties.$browser"
          hint="Each event's breakdown value, e.g. lower(properties.$browser)."
          onChange={setExpression}
        />
      ) : null}
      {key !== null && cohort ? (
        <>
          <RemoveBreakdown onChange={onChange} />
          <label
            htmlFor={allId}
            className="inline-flex h-8 items-center gap-1.5 text-sm text-gray-700 dark:text-gray-300"
          >
            <input
              id={allId}
              type="checkbox"
              checked={withAll}
              onChange={(e) =>
                onChange({
                  breakdown: e.target.checked ? ['all', Number(key)] : [Number(key)],
                  breakdown_type: 'cohort',
                  breakdown_limit: undefined,
                })
              }
            />
            Compare with all users
          </label>
        </>
      ) : null}
      {hogqlShown && key === null ? <RemoveBreakdown onChange={remove} /> : null}
      {key !== null && !cohort ? (
        <>
          <RemoveBreakdown onChange={remove} />
          <LimitField
            value={limit}
            max={MAX}
            error={errorFor?.('breakdown_limit')}
            onChange={(n) => onChange({ ...value, breakdown_limit: n })}
          />
          {numeric || typeof value.breakdown_histogram_bin_count === 'number' ? (
            <BinsField
              name="breakdown"
              value={value.breakdown_histogram_bin_count}
              error={errorFor?.('breakdown_histogram_bin_count')}
              onChange={(bins) => onChange({ ...value, breakdown_histogram_bin_count: bins })}
            />
          ) : null}
          <AddBreakdown
            projectId={projectId}
            position={2}
            onAdd={(k) => {
              const first = keyOf(key, value);
              const entry =
                first.type === 'hogql' || first.type === 'cohort'
                  ? { property: key, type: first.type }
                  : entryOf(first, value.breakdown_histogram_bin_count);
              onChange({ ...CLEARED, breakdown_limit: limit, breakdowns: [entry, entryOf(k)] });
            }}
          />
        </>
      ) : null}
    </div>
  );
}

function RemoveBreakdown({ onChange }: { onChange: (next: BreakdownValue) => void }) {
  return <RemoveButton label="Remove breakdown" onClick={() => onChange(CLEARED)} />;
}

/** The picker's value of a breakdown whose key is `key`: whose property it is. */
function keyOf(key: string, value: BreakdownValue): BreakdownKey {
  if (value.breakdown_type === 'cohort') return { key, type: 'cohort' };
  if (value.breakdown_type === 'group' && typeof value.breakdown_group_type_index === 'number')
    return { key, type: 'group', group_type_index: value.breakdown_group_type_index };
  if (value.breakdown_type === 'session' || value.breakdown_type === 'hogql')
    return { key, type: value.breakdown_type };
  return { key, type: value.breakdown_type === 'person' ? 'person' : 'event' };
}

/** The breakdown as a key to show: a property name, or cohort ids as text. */
function breakdownKey(b: BreakdownValue['breakdown']): string | null {
  if (b === null || b === undefined || b === '') return null;
  if (Array.isArray(b)) return b.length ? b.join(', ') : null;
  return String(b);
}
