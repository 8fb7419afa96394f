import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import type { PropertyGroupInput } from '@/contract/analytics-params';
import { Button } from '@/components/ui/button';
import {
  emittedPaths,
  emptyRow,
  fromGroup,
  isGroup,
  newUid,
  toGroup,
  type FilterEntry,
  type FilterGroup,
  type FilterRow,
  type FilterState,
} from './filter-model';
import { FilterRowEditor } from './filter-row';
import { lowerFirst } from './labels';
import { GroupTypeToggle } from './group-type-toggle';
import { FieldError, useErrorId } from './picker-trigger';

/** The error of a field as the API names it (`events__0__properties__values__1__value`). */
export type ErrorFor = (attr: string) => string | undefined;

export interface PropertyFiltersProps {
  projectId: number;
  value: PropertyGroupInput | undefined;
  onChange: (next: PropertyGroupInput | undefined) => void;
  /** Names the set of filters ("Filters", "Series A filters"). */
  label: string;
  /** AND/OR at the top and groups of filters (one level). */
  groups?: boolean;
  eventNames?: readonly string[];
  /** Where these filters sit in the parameters (`properties`, `events__0__properties`). */
  attrPrefix: string;
  errorFor?: ErrorFor;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The filter editor. Rows being written (no key or no value yet) stay here; only complete filters
 * are emitted, as `{type, values}` (undefined when there are none). Errors from the API are shown
 * under the control they name.
 */
export function PropertyFilters({
  projectId,
  value,
  onChange,
  label,
  groups = false,
  eventNames,
  attrPrefix,
  errorFor,
}: PropertyFiltersProps) {
  const [state, setState] = useState<FilterState>(() => fromGroup(value));
  const [seen, setSeen] = useState(value);
  const [fresh, setFresh] = useState<string | null>(null);
  const addId = useId();
  if (seen !== value) {
    // A new value from outside (a URL, undo): follow it, unless it is what this editor holds.
    setSeen(value);
    if (!same(value, toGroup(state))) setState(fromGroup(value));
  }

  const update = (next: FilterState) => {
    setState(next);
    const group = toGroup(next);
    if (!same(group, value)) onChange(group);
  };
  const paths = emittedPaths(state);
  const errorAt = (uid: string, field: string) => {
    const path = paths.get(uid);
    return path === undefined ? undefined : errorFor?.(`${attrPrefix}__${path}__${field}`);
  };
  const topError = errorFor?.(attrPrefix) ?? errorFor?.(`${attrPrefix}__values`);
  const { errorId, describedBy } = useErrorId(topError);

  const replace = (uid: string, entry: FilterEntry | null) =>
    update({ ...state, entries: state.entries.flatMap((e) => (e.uid === uid ? (entry ? [entry] : []) : [e])) });
  const removeEntry = (uid: string) => {
    replace(uid, null);
    // The removed row's controls are gone: focus goes on to "Add filter", not to the page.
    document.getElementById(addId)?.focus();
  };
  const addRow = () => {
    const row = emptyRow();
    setFresh(row.uid);
    update({ ...state, entries: [...state.entries, row] });
  };
  const addGroup = () => {
    const row = emptyRow();
    setFresh(row.uid);
    update({ ...state, entries: [...state.entries, { uid: newUid('g'), type: 'AND', rows: [row] }] });
  };

  const names = entryNames(state.entries);
  const rowEditor = (row: FilterRow, name: string, onRow: (r: FilterRow | null) => void) => (
    <FilterRowEditor
      key={row.uid}
      projectId={projectId}
      row={row}
      name={name}
      eventNames={eventNames}
      fresh={fresh === row.uid}
      onChange={(r) => onRow(r)}
      onRemove={() => onRow(null)}
      errorOf={(field) => errorAt(row.uid, field)}
    />
  );

  return (
    <fieldset className="min-w-0 space-y-2" aria-describedby={describedBy}>
      <legend className="sr-only">{label}</legend>
      {groups && state.entries.length > 1 ? (
        <div className="flex items-center gap-2 text-xs text-gray-700 dark:text-gray-300">
          <GroupTypeToggle
            value={state.type}
            onChange={(type) => update({ ...state, type })}
            label={`${label}: combine with`}
          />
          <span>{state.type === 'AND' ? 'All of these must match' : 'Any of these may match'}</span>
        </div>
      ) : null}
      {state.entries.map((entry) => {
        const name = names.get(entry.uid) ?? '';
        if (!isGroup(entry)) return rowEditor(entry, name, (r) => (r ? replace(entry.uid, r) : removeEntry(entry.uid)));
        return (
          <FilterGroupEditor
            key={entry.uid}
            group={entry}
            name={name}
            onChange={(g) => replace(entry.uid, g)}
            onRemove={() => removeEntry(entry.uid)}
            onAdd={() => {
              const row = emptyRow();
              setFresh(row.uid);
              replace(entry.uid, { ...entry, rows: [...entry.rows, row] });
            }}
            renderRow={(row, i, onRow) => rowEditor(row, `${name} filter ${i + 1}`, onRow)}
          />
        );
      })}
      <FieldError id={errorId} message={topError} />
      <div className="flex flex-wrap gap-2">
        <Button id={addId} size="sm" variant="ghost" onClick={addRow} aria-label={`Add filter to ${lowerFirst(label)}`}>
          <Plus aria-hidden className="size-4" /> Add filter
        </Button>
        {groups ? (
          <Button size="sm" variant="ghost" onClick={addGroup} aria-label={`Add filter group to ${lowerFirst(label)}`}>
            <Plus aria-hidden className="size-4" /> Add group
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}

/** "Filter 1", "Filter 2" for the top-level filters and "Group 1", "Group 2" for the groups, in order. */
function entryNames(entries: readonly FilterEntry[]): Map<string, string> {
  const names = new Map<string, string>();
  let filters = 0;
  let groups = 0;
  for (const e of entries) names.set(e.uid, isGroup(e) ? `Group ${++groups}` : `Filter ${++filters}`);
  return names;
}

interface FilterGroupEditorProps {
  group: FilterGroup;
  name: string;
  onChange: (next: FilterGroup | null) => void;
  onRemove: () => void;
  onAdd: () => void;
  renderRow: (row: FilterRow, index: number, onRow: (r: FilterRow | null) => void) => React.ReactNode;
}

/** An inner group: its own AND/OR, its filters, add a filter, remove the group. */
function FilterGroupEditor({ group, name, onChange, onRemove, onAdd, renderRow }: FilterGroupEditorProps) {
  const setRow = (uid: string, r: FilterRow | null) => {
    const rows = group.rows.flatMap((x) => (x.uid === uid ? (r ? [r] : []) : [x]));
    onChange(rows.length ? { ...group, rows } : null);
  };
  return (
    <div
      role="group"
      aria-label={name}
      className="space-y-2 rounded-md border border-gray-200 p-2 dark:border-gray-700"
    >
      <div className="flex items-center justify-between gap-2">
        <div className="flex items-center gap-2 text-xs font-medium text-gray-700 dark:text-gray-300">
          <span>{name}</span>
          <GroupTypeToggle
            value={group.type}
            onChange={(type) => onChange({ ...group, type })}
            label={`${name}: combine with`}
          />
        </div>
        <button
          type="button"
          aria-label={`Remove ${lowerFirst(name)}`}
          onClick={onRemove}
          className="inline-flex size-7 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-gray-800"
        >
          <X aria-hidden className="size-4" />
        </button>
      </div>
      {group.rows.map((row, i) => renderRow(row, i, (r) => setRow(row.uid, r)))}
      <Button size="sm" variant="ghost" onClick={onAdd} aria-label={`Add filter to ${lowerFirst(name)}`}>
        <Plus aria-hidden className="size-4" /> Add filter
      </Button>
    </div>
  );
}
