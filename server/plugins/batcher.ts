/**
 * Collects items and hands them on together: the first item added schedules one `flush` of all
 * that were added until it runs. The sandbox's calls (flushed in a microtask) and its worker's
 * results (flushed in the next turn) each cross the thread as one message instead of one apiece.
 */
export function createBatcher<T>(flush: (items: T[]) => void, schedule: (run: () => void) => void): (item: T) => void {
  let items: T[] = [];
  const run = () => {
    const list = items;
    items = [];
    flush(list);
  };
  return (item) => {
    if (items.push(item) === 1) schedule(run);
  };
}
