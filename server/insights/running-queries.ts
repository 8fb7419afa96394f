/**
 * The insight queries running now, by caller and `client_query_id`, so that `cancel/` can stop
 * one (its DuckDB read is interrupted; the request answers 400 query_cancelled). A cancel that
 * arrives before its query starts is remembered for a while, so the query never runs (the
 * client may send both at once).
 */

/** How long a cancel of a query not started yet is remembered. */
export const REMEMBER_CANCEL_MS = 60_000;
/** Most cancels remembered (the oldest are forgotten first). */
const MAX_REMEMBERED = 1000;

export interface QueryOwner {
  projectId: number;
  userId: number;
  clientQueryId: string;
}

const keyOf = (o: QueryOwner) => JSON.stringify([o.projectId, o.userId, o.clientQueryId]);

export function createRunningQueries(now: () => Date) {
  const running = new Map<string, AbortController>();
  const cancelled = new Map<string, number>();

  return {
    /** Runs `work` with a signal that `cancel` of the same owner aborts. */
    async run<T>(owner: QueryOwner, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
      const key = keyOf(owner);
      const controller = new AbortController();
      const at = cancelled.get(key);
      if (at !== undefined && now().getTime() - at < REMEMBER_CANCEL_MS) controller.abort();
      cancelled.delete(key);
      running.set(key, controller);
      try {
        return await work(controller.signal);
      } finally {
        if (running.get(key) === controller) running.delete(key);
      }
    },
    /** Stops the owner's running query; true when one was running. Remembered otherwise. */
    cancel(owner: QueryOwner): boolean {
      const key = keyOf(owner);
      const controller = running.get(key);
      if (controller) {
        controller.abort();
        return true;
      }
      cancelled.set(key, now().getTime());
      while (cancelled.size > MAX_REMEMBERED) cancelled.delete(cancelled.keys().next().value as string);
      return false;
    },
  };
}
export type RunningQueries = ReturnType<typeof createRunningQueries>;
