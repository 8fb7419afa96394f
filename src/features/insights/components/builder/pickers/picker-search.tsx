import { useState } from 'react';
import { CommandStatus } from '@/components/ui/command';
import { errorText } from './search-state';
import { useDebounced } from './use-debounced';

/**
 * The open state and search text every picker's popover has: closing it clears the search, the
 * server is asked with the debounced text, and `stale` says the list is still for older text.
 */
export function usePickerSearch(defaultOpen = false) {
  const [open, setOpenState] = useState(defaultOpen);
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search);
  const setOpen = (next: boolean) => {
    setOpenState(next);
    if (!next) setSearch('');
  };
  return { open, setOpen, search, setSearch, debounced, typed: search.trim(), stale: debounced !== search };
}

interface PickerStatusProps {
  /** The list's query: its error, and whether it is still loading. */
  query: { isError: boolean; error: unknown; isPending: boolean; isFetching: boolean };
  /** The list is for older text than what is typed (usePickerSearch's `stale`). */
  stale: boolean;
  /** How many items the list shows. */
  count: number;
  typed: string;
  /** What the list holds, in the plural: "events", "numeric person properties". */
  noun: string;
  /** What to say when nothing was ever seen, e.g. "No events yet. Type an event name to use it." */
  empty: string;
}

/** The line above a picker's list: why it is empty (failed, loading, nothing yet, no match), or nothing. */
export function PickerStatus({ query, stale, count, typed, noun, empty }: PickerStatusProps) {
  if (query.isError)
    return (
      <CommandStatus tone="danger">
        Couldn't load {noun}: {errorText(query.error)}
      </CommandStatus>
    );
  if (count > 0) return null;
  if (query.isPending || (query.isFetching && stale)) return <CommandStatus>Loading {noun}…</CommandStatus>;
  if (!typed) return <CommandStatus>{empty}</CommandStatus>;
  return (
    <CommandStatus>
      No {noun} match “{typed}”
    </CommandStatus>
  );
}
