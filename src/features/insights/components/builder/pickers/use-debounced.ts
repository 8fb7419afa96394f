import { useDebounced as useDebouncedBy } from '@/lib/use-debounced';

/** How long a picker waits after a keystroke before it asks the server (ms). */
export const SEARCH_DEBOUNCE_MS = 150;

/** `value`, once it has stopped changing for `delay` ms (a picker's pace by default). */
export const useDebounced = <T>(value: T, delay = SEARCH_DEBOUNCE_MS): T => useDebouncedBy(value, delay);
