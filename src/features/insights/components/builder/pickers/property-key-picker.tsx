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

export interface PropertyKeyPickerProps {
  projectId: number;
  value: PropertyKey | null;
  onChange: (next: PropertyKey) => void;
  /** What it picks, e.g. "Filter 1 property": the button reads "Filter 1 property: $browser". */
  label: string;
  /** Only numeric properties (for sum, average, … of a property). */
  numericOnly?: boolean;
  /** Which lists to offer (default both, event first). */
  types?: readonly ('event' | 'person')[];
  /** Event properties only as seen on these events. */
  eventNames?: readonly string[];
  error?: string | undefined;
  /** The button's text while nothing is chosen (default "Choose a property"). */
  placeholder?: string;
  /** Open the list at once (a filter row just added). */
  defaultOpen?: boolean;
}

const KIND_WORDS = { event: 'Event properties', person: 'Person properties' } as const;
const DEFAULT_TYPES = ['event', 'person'] as const;

/** The chosen key in words: person keys say so. */
export function propertyKeyText(value: PropertyKey): string {
  const text = propertyLabel(value.key);
  return value.type === 'person' ? `${text} (person)` : text;
}

/**
 * A button with the chosen property key; it opens the event and person property lists, each key
 * with its value type. numericOnly and eventNames narrow the lists; a key they lack can be typed.
 */
export function PropertyKeyPicker({
  projectId, value, onChange, label, numericOnly, types = DEFAULT_TYPES, eventNames, error, placeholder = 'Choose a property', defaultOpen = false,
}: PropertyKeyPickerProps) {
  const { open, setOpen, search, setSearch, debounced, typed, stale } = usePickerSearch(defaultOpen);
  const [chosenKind, setKind] = useState<'event' | 'person'>(value?.type ?? types[0] ?? 'event');
  const kind = types.includes(chosenKind) ? chosenKind : (types[0] ?? 'event');
  const { errorId, describedBy } = useErrorId(error);
  const query = useQuery({
    ...definitionQueries.properties(projectId, { type: kind, search: debounced, eventNames, numericOnly }),
    enabled: open,
  });

  const results = (query.data?.results ?? []).filter((d) => matchesSearch(d.name, typed) && (!numericOnly || d.is_numerical));
  const exact = results.some((d) => d.name === typed);
  const noun = numericOnly ? `numeric ${kind} properties` : `${kind} properties`;

  const pick = (key: string) => {
    onChange({ key, type: kind });
    setOpen(false);
  };
  const shown = value ? propertyKeyText(value) : placeholder;

  return (
    <div className="flex min-w-0 flex-col gap-1">
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          // Open on the list of the chosen key.
          if (next && value) setKind(value.type);
        }}
        label={label}
        className="w-80"
        trigger={
          <PickerTrigger aria-label={`${label}: ${shown}`} aria-describedby={describedBy} invalid={Boolean(error)} placeholder={!value}>
            {shown}
          </PickerTrigger>
        }
      >
        {types.length > 1 ? (
          <div role="group" aria-label="Whose properties" className="mb-2 flex gap-1 rounded-md bg-gray-100 p-0.5 dark:bg-gray-800">
            {types.map((t) => (
              <button
                key={t}
                type="button"
                aria-pressed={kind === t}
                onClick={() => setKind(t)}
                className={cn(
                  'flex-1 rounded px-2 py-1 text-xs font-medium',
                  kind === t ? 'bg-white text-gray-900 shadow-sm dark:bg-gray-950 dark:text-gray-100' : 'text-gray-700 dark:text-gray-300',
                )}
              >
                {KIND_WORDS[t]}
              </button>
            ))}
          </div>
        ) : null}
        <Command label="Search properties" shouldFilter={false} loop firstValue={typed ? results[0]?.name : undefined}>
          <CommandInput
            value={search}
            onValueChange={setSearch}
            placeholder={`Search ${noun}`}
            // Typing starts in the search, not on the Event/Person switch above it.
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the picker was just opened by the user
            autoFocus
          />
          <PickerStatus query={query} stale={stale} count={results.length} typed={typed} noun={noun} empty={`No ${noun} yet. Type a property name to use it.`} />
          <CommandList label={KIND_WORDS[kind]}>
            {results.map((d) => (
              <CommandItem key={d.id} value={d.name} onSelect={() => pick(d.name)}>
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
            <UseTypedItem typed={typed} exact={exact} onPick={pick} />
          </CommandList>
        </Command>
      </Popover>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
