import { ANALYTICS_LIMITS, type BreakdownEntryInput as BreakdownEntry } from '@/contract/analytics-params';
import { HogqlField } from '../field-parts';
import type { ErrorFor } from './property-filters';
import { PropertyKeyPicker } from './property-key-picker';
import {
  AddBreakdown,
  BinsField,
  ENTRY_KINDS,
  entryOf,
  LimitField,
  RemoveButton,
  useNumericBreakdown,
  type BreakdownValue,
  type EntryKey,
} from './breakdown-parts';

/** Several breakdowns at once (docs/api.md, "Breakdowns"): one row each, then the limit. */
export function BreakdownList({
  projectId,
  value,
  onChange,
  errorFor,
  defaultLimit,
}: {
  projectId: number;
  value: BreakdownValue;
  onChange: (next: BreakdownValue) => void;
  errorFor: ErrorFor | undefined;
  defaultLimit: number;
  /** Whether a numeric entry may be binned. */
}) {
  const entries = value.breakdowns ?? [];
  const setEntries = (next: BreakdownEntry[]) => {
    // One left: back to a single breakdown, as the API and the rest of the builder know it.
    if (next.length === 1) {
      const [only] = next as [BreakdownEntry];
      onChange({
        breakdowns: undefined,
        breakdown: only.property,
        breakdown_type: only.type,
        breakdown_limit: value.breakdown_limit,
        breakdown_group_type_index: only.group_type_index ?? undefined,
        breakdown_histogram_bin_count: only.histogram_bin_count ?? undefined,
      });
    } else {
      onChange({ ...value, breakdowns: next });
    }
  };
  const replace = (i: number, entry: BreakdownEntry) => setEntries(entries.map((e, j) => (j === i ? entry : e)));
  return (
    <div className="flex flex-col gap-2">
      <ol className="flex flex-col gap-2" aria-label="Breakdowns">
        {entries.map((entry, i) => (
          <EntryRow
            key={i}
            projectId={projectId}
            position={i + 1}
            entry={entry}
            errorFor={errorFor}
            onChange={(next) => replace(i, next)}
            onRemove={() => setEntries(entries.filter((_, j) => j !== i))}
          />
        ))}
      </ol>
      <div className="flex flex-wrap items-start gap-2">
        {entries.length < ANALYTICS_LIMITS.multipleBreakdowns ? (
          <AddBreakdown
            projectId={projectId}
            position={entries.length + 1}
            onAdd={(k) => setEntries([...entries, entryOf(k)])}
          />
        ) : null}
        <LimitField
          value={value.breakdown_limit ?? defaultLimit}
          max={ANALYTICS_LIMITS.breakdownLimit}
          error={errorFor?.('breakdown_limit')}
          onChange={(n) => onChange({ ...value, breakdown_limit: n })}
        />
      </div>
      {errorFor?.('breakdowns') ? (
        <p className="text-xs text-red-700 dark:text-red-300">{errorFor('breakdowns')}</p>
      ) : null}
    </div>
  );
}

function EntryRow({
  projectId,
  position,
  entry,
  errorFor,
  onChange,
  onRemove,
}: {
  projectId: number;
  position: number;
  entry: BreakdownEntry;
  errorFor: ErrorFor | undefined;
  onChange: (next: BreakdownEntry) => void;
  onRemove: () => void;
}) {
  const at = (field: string) => errorFor?.(`breakdowns__${position - 1}__${field}`);
  const numeric = useNumericBreakdown(projectId, entry.type, entry.property);
  const hogql = entry.type === 'hogql';
  const name = `breakdown ${position}`;
  const key: EntryKey | null =
    entry.type === 'group' && typeof entry.group_type_index === 'number'
      ? { key: entry.property, type: 'group', group_type_index: entry.group_type_index }
      : entry.type === 'event' || entry.type === 'person' || entry.type === 'session' || entry.type === undefined
        ? { key: entry.property, type: entry.type ?? 'event' }
        : null;
  return (
    <li className="flex flex-wrap items-start gap-2">
      {hogql ? (
        <HogqlField
          label={`Breakdown ${position} HogQL expression`}
          className="grow"
          value={entry.property}
          error={at('property')}
          placeholder="properties.$browser"
          onChange={(text) => onChange({ ...entry, property: text })}
        />
      ) : (
        <PropertyKeyPicker<EntryKey>
          projectId={projectId}
          value={key}
          types={ENTRY_KINDS}
          label={`Breakdown ${position} by`}
          error={at('property') ?? at('type') ?? at('group_type_index')}
          onChange={(k) => onChange(entryOf(k, entry.histogram_bin_count))}
        />
      )}
      <RemoveButton label={`Remove breakdown ${position}`} onClick={onRemove} />
      {numeric || typeof entry.histogram_bin_count === 'number' ? (
        <BinsField
          name={name}
          value={entry.histogram_bin_count}
          error={at('histogram_bin_count')}
          onChange={(bins) => {
            const { histogram_bin_count: _old, ...rest } = entry;
            onChange(bins ? { ...rest, histogram_bin_count: bins } : rest);
          }}
        />
      ) : null}
    </li>
  );
}
