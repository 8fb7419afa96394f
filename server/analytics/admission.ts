import { QueryCancelledError, QueryTimeoutError } from './store/duckdb.ts';

/**
 * How many analyses compute at once; the others wait their turn, first come first served.
 * DuckDB already spreads one query over every thread it has, so running more queries than
 * threads adds no throughput: they share the cores and the memory cap, spill, and all of them
 * finish late together (four 10M-event funnels at once all ran past the 9 s budget; two at a
 * time, most answered). Waiting counts against the request's time budget, and a cancelled
 * request leaves the queue. Reads that are not analyses (definitions, persons) are not gated.
 */
export interface AnalysisGate {
  run<T>(work: () => Promise<T>, read: { deadline: number; signal?: AbortSignal | undefined }): Promise<T>;
}

export function createAnalysisGate(limit: number): AnalysisGate {
  let running = 0;
  const queue: { start: () => void }[] = [];
  const next = () => {
    const waiter = queue.shift();
    if (waiter) waiter.start();
    else running -= 1;
  };
  const turn = (read: { deadline: number; signal?: AbortSignal | undefined }) =>
    new Promise<void>((resolve, reject) => {
      if (running < limit) {
        running += 1;
        resolve();
        return;
      }
      const waiter = {
        start: () => {
          clearTimeout(timer);
          read.signal?.removeEventListener('abort', cancel);
          resolve();
        },
      };
      const leave = (error: Error) => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        read.signal?.removeEventListener('abort', cancel);
        reject(error);
      };
      const cancel = () => {
        clearTimeout(timer);
        leave(new QueryCancelledError());
      };
      const timer = setTimeout(() => leave(new QueryTimeoutError()), Math.max(0, read.deadline - Date.now()));
      if (read.signal?.aborted) return cancel();
      read.signal?.addEventListener('abort', cancel, { once: true });
      queue.push(waiter);
    });
  return {
    async run(work, read) {
      await turn(read);
      try {
        return await work();
      } finally {
        next();
      }
    },
  };
}
