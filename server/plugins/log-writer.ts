import type { Store } from '../store/store.ts';

type Level = 'LOG' | 'INFO' | 'WARN' | 'ERROR';

/** Lines one destination may write to its log in a minute; the rest are counted and dropped. */
export const LOG_LINES_PER_MINUTE = 1000;
/** How long lines wait before they are written, all in one transaction. */
export const LOG_FLUSH_MS = 200;

interface Minute {
  start: number;
  written: number;
  dropped: number;
}

/**
 * Plugin log lines, written in batches: one SQLite transaction per flush instead of one write per
 * line (a plugin printing thousands of lines an event froze every request while each was written).
 * Past LOG_LINES_PER_MINUTE a destination's lines are dropped, and once its minute is over one
 * entry says how many were.
 */
export function createPluginLogWriter(store: Store, now: () => Date, perMinute = LOG_LINES_PER_MINUTE) {
  let lines: { configId: number; level: Level; source: string; message: string; at: string }[] = [];
  const minutes = new Map<number, Minute>();
  let timer: NodeJS.Timeout | null = null;
  /** Whether `timer` is the short wait for lines (else the end of a minute with dropped lines). */
  let soon = false;

  const droppedEntry = (configId: number, minute: Minute, at: string) =>
    lines.push({
      configId,
      level: 'WARN',
      source: 'delivery',
      at,
      message: `${minute.dropped} log ${minute.dropped === 1 ? 'line was' : 'lines were'} dropped: a destination writes at most ${perMinute} lines a minute to its log.`,
    });

  /** Writes what waits; `all`: also the dropped counts of minutes not over yet (closing). */
  const flush = (all = false) => {
    if (timer) clearTimeout(timer);
    timer = null;
    soon = false;
    const at = now();
    let nextEnd = Infinity;
    for (const [configId, minute] of minutes) {
      if (!all && at.getTime() - minute.start < 60_000) {
        if (minute.dropped > 0) nextEnd = Math.min(nextEnd, minute.start + 60_000);
        continue;
      }
      if (minute.dropped > 0) droppedEntry(configId, minute, at.toISOString());
      minutes.delete(configId);
    }
    // a minute with dropped lines says so when it is over, even if no line comes after it
    if (nextEnd !== Infinity) {
      timer = setTimeout(() => flush(), Math.max(0, nextEnd - at.getTime()));
      timer.unref();
    }
    if (lines.length === 0) return;
    const batch = lines;
    lines = [];
    try {
      store.transaction(() => {
        for (const l of batch) store.pluginConfigs.log(l.configId, l.level, l.source, l.message, l.at);
      });
    } catch {
      // a config deleted meanwhile (its lines go with it), or the store is closing
    }
  };
  const schedule = () => {
    if (soon) return;
    if (timer) clearTimeout(timer);
    soon = true;
    timer = setTimeout(() => flush(), LOG_FLUSH_MS);
    timer.unref();
  };

  return {
    add(configId: number, level: Level, source: string, message: string): void {
      const at = now();
      let minute = minutes.get(configId);
      if (minute && at.getTime() - minute.start >= 60_000) {
        if (minute.dropped > 0) droppedEntry(configId, minute, at.toISOString());
        minute = undefined;
      }
      if (!minute) minutes.set(configId, (minute = { start: at.getTime(), written: 0, dropped: 0 }));
      if (minute.written >= perMinute) {
        minute.dropped += 1;
        if (minute.dropped === 1) schedule(); // the flush then waits for the minute's end
      } else {
        minute.written += 1;
        lines.push({ configId, level, source, message, at: at.toISOString() });
        schedule();
      }
    },
    /** Writes every waiting line now (tests, idle, shutdown); `closing` also says what was dropped. */
    flush: (closing = false) => flush(closing),
  };
}
export type PluginLogWriter = ReturnType<typeof createPluginLogWriter>;
