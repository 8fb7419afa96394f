import { useQuery } from '@tanstack/react-query';
import { Check, Plus, X } from 'lucide-react';
import { Command, CommandInput, CommandItem, CommandList } from '@/components/ui/command';
import { UseTypedItem } from './use-typed-item';
import { cn } from '@/components/ui/cn';
import { Popover } from '@/components/ui/popover';
import { definitionQueries } from '../../../api/definitions.queries';
import type { GroupKey, PropertyKey } from './property-key-picker';
import { PickerStatus, usePickerSearch } from './picker-search';
import { propertyLabel } from './labels';

export type ScalarValue = string | number | boolean;

interface ValueChipsPickerProps {
  projectId: number;
  /** Whose property: an event's or person's values come from the events, a group's from the type's groups. */
  property: PropertyKey | GroupKey;
  values: readonly ScalarValue[];
  onChange: (values: ScalarValue[]) => void;
  label: string;
  eventName?: string | undefined;
  describedBy?: string | undefined;
  invalid?: boolean;
}

const same = (a: ScalarValue, b: ScalarValue) => String(a) === String(b);

/**
 * Several values as removable chips, and a popover to add more: the values the property takes
 * (most frequent first) or any typed text. Picking a chosen value again removes it.
 */
export function ValueChipsPicker({
  projectId,
  property,
  values,
  onChange,
  label,
  eventName,
  describedBy,
  invalid,
}: ValueChipsPickerProps) {
  const { open, setOpen, search, setSearch, debounced, typed, stale } = usePickerSearch();
  const group = property.type === 'group' ? property.group_type_index : null;
  const eventValues = useQuery({
    ...definitionQueries.values(projectId, {
      key: property.key,
      type: property.type === 'person' ? 'person' : 'event',
      search: debounced,
      eventName,
    }),
    enabled: open && group === null,
  });
  const groupValues = useQuery({
    ...definitionQueries.groupPropertyValues(projectId, group ?? 0, property.key),
    enabled: open && group !== null,
  });
  const query = group === null ? eventValues : groupValues;
  const suggestions = (query.data ?? []).filter(
    (s) => typed === '' || String(s.name).toLowerCase().includes(typed.toLowerCase()),
  );
  const exact = suggestions.some((s) => String(s.name) === typed) || values.some((v) => String(v) === typed);

  const toggle = (v: ScalarValue) => {
    onChange(values.some((x) => same(x, v)) ? values.filter((x) => !same(x, v)) : [...values, v]);
    setSearch('');
  };

  return (
    <div
      className="flex min-w-0 flex-wrap items-center gap-1"
      role="group"
      aria-label={label}
      aria-describedby={describedBy}
    >
      {values.map((v) => (
        <span
          key={`${typeof v}:${String(v)}`}
          className="inline-flex max-w-48 items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2 text-xs text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100"
        >
          <span className="truncate">{String(v)}</span>
          <button
            type="button"
            aria-label={`Remove value ${String(v)}`}
            onClick={() => onChange(values.filter((x) => !same(x, v)))}
            className="rounded-full p-0.5 hover:bg-indigo-100 dark:hover:bg-indigo-900"
          >
            <X aria-hidden className="size-3" />
          </button>
        </span>
      ))}
      <Popover
        open={open}
        onOpenChange={setOpen}
        label={label}
        className="w-72"
        trigger={
          <button
            type="button"
            aria-label={values.length ? `${label}: add a value` : `${label}: choose values`}
            className={cn(
              'inline-flex h-7 items-center gap-1 rounded-md border border-dashed px-2 text-xs font-medium text-gray-700 hover:bg-gray-50 dark:text-gray-300 dark:hover:bg-gray-800',
              invalid ? 'border-red-600 dark:border-red-400' : 'border-gray-400 dark:border-gray-600',
            )}
          >
            <Plus aria-hidden className="size-3.5" />
            {values.length ? 'Add' : 'Choose values'}
          </button>
        }
      >
        <Command
          label="Search values"
          shouldFilter={false}
          loop
          firstValue={typed && suggestions[0] ? String(suggestions[0].name) : undefined}
        >
          <CommandInput
            value={search}
            onValueChange={setSearch}
            placeholder={`Values of ${propertyLabel(property.key)}`}
          />
          <PickerStatus
            query={query}
            stale={stale}
            count={suggestions.length}
            typed={typed}
            noun="values"
            empty="No values seen yet. Type a value to use it."
          />
          <CommandList label={`Values of ${propertyLabel(property.key)}`}>
            {suggestions.map((s) => {
              const chosen = values.some((v) => same(v, s.name));
              return (
                <CommandItem key={String(s.name)} value={String(s.name)} onSelect={() => toggle(s.name)}>
                  <Check aria-hidden className={cn('size-3.5 shrink-0', chosen ? 'opacity-100' : 'opacity-0')} />
                  <span className="min-w-0 flex-1 truncate">{String(s.name)}</span>
                  {chosen ? <span className="sr-only">(chosen)</span> : null}
                  {s.count !== undefined ? (
                    <span className="text-xs text-gray-600 tabular-nums dark:text-gray-400">
                      {s.count.toLocaleString('en')}
                    </span>
                  ) : null}
                </CommandItem>
              );
            })}
            <UseTypedItem typed={typed} exact={exact} onPick={toggle} />
          </CommandList>
        </Command>
      </Popover>
    </div>
  );
}
