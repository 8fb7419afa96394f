import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Command, CommandInput, CommandItem, CommandList } from '@/components/ui/command';
import { UseTypedItem } from './use-typed-item';
import { cn } from '@/components/ui/cn';
import { Popover } from '@/components/ui/popover';
import { definitionQueries } from '../../../api/definitions.queries';
import { FieldError, PickerTrigger, useErrorId } from './picker-trigger';
import { PropertyTypeBadge } from './property-type-badge';
import { PickerStatus, usePickerSearch } from './picker-search';
import { matchesSearch } from './search-state';
import { propertyLabel } from './labels';

/** A property key and whose it is: the event's or the person's. */
export interface PropertyKey {
  key: string;
  type: 'event' | 'person';
}
/** A cohort, where the picker offers them (filters, breakdowns): `key` is its id as text. */
export interface CohortKey {
  key: string;
  type: 'cohort';
}
/** A property of a group of one of the project's group types, where the picker offers them. */
export interface GroupKey {
  key: string;
  type: 'group';
  group_type_index: number;
}
/** A session property (docs/hogql.md, "Session properties"), derived from `$session_id`. */
export interface SessionKey {
  key: string;
  type: 'session';
}
/** A HogQL expression where a property would go (docs/hogql.md); `key` is the expression, maybe still empty. */
export interface HogqlKey {
  key: string;
  type: 'hogql';
}
/** The session properties the server derives, with their value types. */
export const SESSION_PROPERTIES = [
  { name: '$session_duration', property_type: 'Numeric' },
  { name: '$entry_current_url', property_type: 'String' },
  { name: '$exit_current_url', property_type: 'String' },
  { name: '$pageview_count', property_type: 'Numeric' },
] as const;
/** What a picker may offer: `group` stands for one list per group type of the project. */
type Offered = PropertyKey['type'] | 'cohort' | 'group' | 'session' | 'hogql';
/** One list of the picker: a group type's is `group:<index>`. */
type Kind = Exclude<Offered, 'group'> | `group:${number}`;
type AnyKey = PropertyKey | CohortKey | GroupKey | SessionKey | HogqlKey;
const kindOf = (k: AnyKey): Kind => (k.type === 'group' ? `group:${k.group_type_index}` : k.type);
const groupIndexOf = (kind: Kind): number | null => (kind.startsWith('group:') ? Number(kind.slice(6)) : null);

export interface PropertyKeyPickerProps<K extends AnyKey = PropertyKey> {
  projectId: number;
  value: K | null;
  onChange: (next: K) => void;
  /** What it picks, e.g. "Filter 1 property": the button reads "Filter 1 property: $browser". */
  label: string;
  /** Only numeric properties (for sum, average, … of a property). */
  numericOnly?: boolean;
  /** Which lists to offer (default event and person properties, event first); `cohort` only where K allows it. */
  types?: readonly K['type'][];
  /** Event properties only as seen on these events. */
  eventNames?: readonly string[];
  error?: string | undefined;
  /** The button's text while nothing is chosen (default "Choose a property"). */
  placeholder?: string;
  /** Open the list at once (a filter row just added). */
  defaultOpen?: boolean;
}

const KIND_WORDS = {
  event: 'Event properties',
  person: 'Person properties',
  cohort: 'Cohorts',
  session: 'Session properties',
  hogql: 'HogQL expression',
} as const;
const groupWords = (type: string) => `${type[0]?.toUpperCase() ?? ''}${type.slice(1)} properties`;
const DEFAULT_TYPES = ['event', 'person'] as const;

/** The chosen key in words: person keys say so. */
export function propertyKeyText(value: PropertyKey): string {
  const text = propertyLabel(value.key);
  return value.type === 'person' ? `${text} (person)` : text;
}

/** The status of a list the picker holds itself: never loading, never failed. */
const LOCAL_LIST = { isError: false, error: null, isPending: false, isFetching: false };

/** The project's cohorts as the picker lists them (id as text, name), fetched when asked. */
function useCohortNames(projectId: number, enabled: boolean) {
  const query = useQuery({ ...definitionQueries.cohorts(projectId), enabled });
  const names = (query.data?.results ?? []).map((c) => ({ id: String(c.id), name: c.name || `Cohort ${c.id}` }));
  return { query, names };
}

/**
 * A button with the chosen property key; it opens the event and person property lists, each key
 * with its value type. numericOnly and eventNames narrow the lists; a key they lack can be typed.
 */
export function PropertyKeyPicker<K extends AnyKey = PropertyKey>({
  projectId,
  value,
  onChange,
  label,
  numericOnly,
  types = DEFAULT_TYPES as readonly K['type'][],
  eventNames,
  error,
  placeholder = 'Choose a property',
  defaultOpen = false,
}: PropertyKeyPickerProps<K>) {
  const { open, setOpen, search, setSearch, debounced, typed, stale } = usePickerSearch(defaultOpen);
  const wanted = types as readonly Offered[];
  // `group` becomes one list per group type of the project (none until it has some).
  const groupTypes =
    useQuery({ ...definitionQueries.groupTypes(projectId), enabled: wanted.includes('group') }).data ?? [];
  const offered: Kind[] = wanted.flatMap((t): Kind[] =>
    t === 'group' ? groupTypes.map((g) => `group:${g.group_type_index}` as const) : [t],
  );
  const [chosenKind, setKind] = useState<Kind>(value ? kindOf(value) : (offered[0] ?? 'event'));
  const kind = offered.includes(chosenKind) ? chosenKind : (offered[0] ?? 'event');
  const groupIndex = groupIndexOf(kind);
  const kindWords = (k: Kind) => {
    const index = groupIndexOf(k);
    return index === null
      ? KIND_WORDS[k as keyof typeof KIND_WORDS]
      : groupWords(groupTypes.find((g) => g.group_type_index === index)?.group_type ?? `group ${index}`);
  };
  const { errorId, describedBy } = useErrorId(error);
  const listed = kind === 'event' || kind === 'person' ? kind : 'event';
  const query = useQuery({
    ...definitionQueries.properties(projectId, { type: listed, search: debounced, eventNames, numericOnly }),
    enabled: open && (kind === 'event' || kind === 'person'),
  });
  const groupKeys = useQuery({
    ...definitionQueries.groupPropertyKeys(projectId, groupIndex ?? 0),
    enabled: open && groupIndex !== null,
  });
  const cohorts = useCohortNames(projectId, (open && kind === 'cohort') || value?.type === 'cohort');

  // Lists of the picker's own (no request): the session properties, and the one HogQL entry, which picks what is typed.
  const local = kind === 'session' || kind === 'hogql';
  const results =
    kind === 'session'
      ? SESSION_PROPERTIES.filter((d) => matchesSearch(d.name, typed)).map((d) => ({
          id: d.name,
          name: d.name,
          key: d.name,
          property_type: d.property_type,
        }))
      : kind === 'hogql'
        ? [{ id: 'hogql', name: typed || 'HogQL expression', key: typed, property_type: null }]
        : kind === 'cohort'
          ? cohorts.names
              .filter((c) => matchesSearch(c.name, typed))
              .map((c) => ({ id: c.id, name: c.name, key: c.id, property_type: null }))
          : groupIndex !== null
            ? (groupKeys.data ?? [])
                .filter((k) => matchesSearch(k, typed))
                .map((k) => ({ id: k, name: k, key: k, property_type: null }))
            : (query.data?.results ?? [])
                .filter((d) => matchesSearch(d.name, typed) && (!numericOnly || d.is_numerical))
                .map((d) => ({ ...d, key: d.name }));
  const exact = results.some((d) => d.name === typed);
  const noun =
    kind === 'cohort'
      ? 'cohorts'
      : kind === 'session'
        ? 'session properties'
        : kind === 'hogql'
          ? 'HogQL expressions'
          : groupIndex !== null
            ? kindWords(kind).toLowerCase()
            : numericOnly
              ? `numeric ${kind} properties`
              : `${kind} properties`;

  const pick = (key: string) => {
    onChange((groupIndex !== null ? { key, type: 'group', group_type_index: groupIndex } : { key, type: kind }) as K);
    setOpen(false);
  };
  const cohortName = (id: string) => cohorts.names.find((c) => c.id === id)?.name ?? `Cohort ${id}`;
  const groupName = (index: number) =>
    groupTypes.find((g) => g.group_type_index === index)?.group_type ?? `group ${index}`;
  const shown = !value
    ? placeholder
    : value.type === 'cohort'
      ? `Cohort: ${cohortName(value.key)}`
      : value.type === 'group'
        ? `${propertyLabel(value.key)} (${groupName(value.group_type_index)})`
        : value.type === 'session'
          ? `${propertyLabel(value.key)} (session)`
          : value.type === 'hogql'
            ? 'HogQL expression'
            : propertyKeyText(value as PropertyKey);

  return (
    <div className="flex min-w-0 flex-col gap-1">
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          // Open on the list of the chosen key.
          if (next && value) setKind(kindOf(value));
        }}
        label={label}
        className="w-80"
        trigger={
          <PickerTrigger
            aria-label={`${label}: ${shown}`}
            aria-describedby={describedBy}
            invalid={Boolean(error)}
            placeholder={!value}
          >
            {shown}
          </PickerTrigger>
        }
      >
        {offered.length > 1 ? (
          <div
            role="group"
            aria-label="Whose properties"
            className="mb-2 flex flex-wrap gap-1 rounded-md bg-gray-100 p-0.5 dark:bg-gray-800"
          >
            {offered.map((t) => (
              <button
                key={t}
                type="button"
                aria-pressed={kind === t}
                onClick={() => setKind(t)}
                className={cn(
                  'flex-1 rounded px-2 py-1 text-xs font-medium',
                  kind === t
                    ? 'bg-white text-gray-900 shadow-sm dark:bg-gray-950 dark:text-gray-100'
                    : 'text-gray-700 dark:text-gray-300',
                )}
              >
                {kindWords(t)}
              </button>
            ))}
          </div>
        ) : null}
        <Command label="Search properties" shouldFilter={false} loop firstValue={typed ? results[0]?.name : undefined}>
          <CommandInput
            value={search}
            onValueChange={setSearch}
            placeholder={kind === 'hogql' ? 'Type an expression, e.g. properties.$browser' : `Search ${noun}`}
            // Typing starts in the search, not on the Event/Person switch above it.
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the picker was just opened by the user
            autoFocus
          />
          <PickerStatus
            query={local ? LOCAL_LIST : kind === 'cohort' ? cohorts.query : groupIndex !== null ? groupKeys : query}
            stale={local || kind === 'cohort' || groupIndex !== null ? false : stale}
            count={results.length}
            typed={typed}
            noun={noun}
            empty={
              kind === 'cohort'
                ? 'No cohorts yet: make one on the Cohorts page.'
                : `No ${noun} yet. Type a property name to use it.`
            }
          />
          <CommandList label={kindWords(kind)}>
            {results.map((d) => (
              <CommandItem key={d.id} value={d.key} onSelect={() => pick(d.key)}>
                {/* A key the SDKs send in words, then the key itself; others as they are. */}
                {propertyLabel(d.name) !== d.name ? (
                  <span className="min-w-0 flex-1 truncate">
                    {propertyLabel(d.name)}
                    <span className="ml-1.5 font-mono text-xs text-gray-600 dark:text-gray-400">{d.name}</span>
                  </span>
                ) : (
                  <span className="min-w-0 flex-1 truncate font-mono text-xs">{d.name}</span>
                )}
                <PropertyTypeBadge type={d.property_type} />
              </CommandItem>
            ))}
            {local || kind === 'cohort' ? null : <UseTypedItem typed={typed} exact={exact} onPick={pick} />}
          </CommandList>
        </Command>
      </Popover>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
