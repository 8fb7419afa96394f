/** How far the demo seed has come: events written of all it will write, and since when. */
export interface SeedProgress {
  written: number;
  total: number;
  /** Since the seed started (the events are generated before any is written). */
  elapsedMs: number;
}

export type SeedProgressListener = (progress: SeedProgress) => void;

interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const grouped = (n: number) => n.toLocaleString('en-US');

function duration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * The line for one step: the count and share written, and the time left at the pace so far
 * (which includes generating the events, so it errs long early on).
 */
export function progressLine({ written, total, elapsedMs }: SeedProgress): string {
  const share = total > 0 ? Math.floor((written / total) * 100) : 100;
  const left =
    written > 0 ? `about ${duration((elapsedMs * (total - written)) / written)} left` : 'estimating the time left';
  return `seeding demo events: ${grouped(written)} of ${grouped(total)} written (${share}%), ${written >= total ? 'finishing' : left}`;
}

/**
 * Prints the seed's progress where a person waits for it: on a terminal one line rewritten in
 * place; in a log (not a terminal) a line at the start and then at most one per `everyMs`, so a
 * slow seed on a busy machine says it is alive without flooding the log. `done()` ends the line.
 */
export function seedProgressPrinter(stream: ProgressStream, { everyMs = 5000, now = () => performance.now() } = {}) {
  let lastPrinted = -Infinity;
  let drawn = false;
  const listener: SeedProgressListener = (progress) => {
    const line = progressLine(progress);
    if (stream.isTTY) {
      // \r and "erase to end of line": a shorter line leaves nothing of the longer one before it.
      stream.write(`\r${line}\x1b[K`);
      drawn = true;
      return;
    }
    const t = now();
    if (t - lastPrinted < everyMs) return;
    lastPrinted = t;
    stream.write(`${line}\n`);
  };
  return {
    listener,
    done() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
