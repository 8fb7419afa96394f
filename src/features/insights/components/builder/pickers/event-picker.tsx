import { useQuery } from '@tanstack/react-query';
import { Command, CommandInput, CommandItem, CommandList } from '@/components/ui/command';
import { UseTypedItem } from './use-typed-item';
import { Popover } from '@/components/ui/popover';
import { definitionQueries } from '../../../api/definitions.queries';
import { compactCount, eventLabel } from './labels';
import { FieldError, PickerTrigger, useErrorId } from './picker-trigger';
import { PickerStatus, usePickerSearch } from './picker-search';
import { matchesSearch } from './search-state';

export interface EventPickerProps {
  projectId: number;
  /** The event name; null = all events. */
  value: string | null;
  onChange: (name: string | null) => void;
  /** What it picks, e.g. "Series A event": the button reads "Series A event: Pageview". */
  label: string;
  /** Offer "All events" (null) at the top of the list. */
  allowAll?: boolean;
  error?: string | undefined;
}

const ALL_VALUE = '\u0000all';

/**
 * A button with the chosen event; it opens a searchable list of the project's events (most used
 * first, with their 30-day volume). Enter picks; a name the list lacks can still be used.
 */
export function EventPicker({ projectId, value, onChange, label, allowAll, error }: EventPickerProps) {
  const { open, setOpen, search, setSearch, debounced, typed, stale } = usePickerSearch();
  const { errorId, describedBy } = useErrorId(error);
  const query = useQuery({ ...definitionQueries.events(projectId, debounced), enabled: open });

  const results = (query.data?.results ?? []).filter((d) => matchesSearch(d.name, typed));
  const exact = results.some((d) => d.name === typed);

  const pick = (name: string | null) => {
    onChange(name);
    setOpen(false);
  };

  return (
    <div className="flex min-w-0 flex-col gap-1">
      <Popover
        open={open}
        onOpenChange={setOpen}
        label={label}
        className="w-80"
        trigger={
          <PickerTrigger
            aria-label={`${label}: ${eventLabel(value)}`}
            aria-describedby={describedBy}
            invalid={Boolean(error)}
          >
            {eventLabel(value)}
          </PickerTrigger>
        }
      >
        <Command
          label="Search events"
          shouldFilter={false}
          loop
          firstValue={typed ? results[0]?.name : undefined}
          defaultValue={value ?? (allowAll ? ALL_VALUE : undefined)}
        >
          <CommandInput value={search} onValueChange={setSearch} placeholder="Search events" />
          <PickerStatus
            query={query}
            stale={stale}
            count={results.length}
            typed={typed}
            noun="events"
            empty="No events yet. Type an event name to use it."
          />
          <CommandList label="Events">
            {allowAll && !typed ? (
              <CommandItem value={ALL_VALUE} onSelect={() => pick(null)}>
                All events
              </CommandItem>
            ) : null}
            {results.map((d) => (
              <CommandItem key={d.id} value={d.name} onSelect={() => pick(d.name)}>
                <span className="min-w-0 flex-1 truncate">
                  {eventLabel(d.name)}
                  {eventLabel(d.name) !== d.name ? (
                    <span className="ml-1.5 font-mono text-xs text-gray-600 dark:text-gray-400">{d.name}</span>
                  ) : null}
                </span>
                {d.volume_30_day !== null ? (
                  <span
                    className="shrink-0 text-xs text-gray-600 tabular-nums dark:text-gray-400"
                    title={`${d.volume_30_day.toLocaleString('en')} in the last 30 days`}
                  >
                    {compactCount(d.volume_30_day)}
                  </span>
                ) : null}
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
