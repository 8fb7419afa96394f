import { describe, expect, it } from 'vitest';
import { progressLine, seedProgressPrinter } from '../../server/seed/progress.ts';

function stream(isTTY: boolean) {
  let text = '';
  return { isTTY, write: (s: string) => (text += s), text: () => text };
}

describe('seed progress', () => {
  it('estimates the time left from the pace so far', () => {
    expect(progressLine({ written: 250_000, total: 1_000_000, elapsedMs: 20_000 })).toBe(
      'seeding demo events: 250,000 of 1,000,000 written (25%), about 1 min 00 s left',
    );
    expect(progressLine({ written: 0, total: 1_000_000, elapsedMs: 5_000 })).toMatch(
      /0 of 1,000,000 written \(0%\), estimating the time left$/,
    );
  });

  it('on a terminal rewrites one line in place, and ends it once done', () => {
    const out = stream(true);
    const printer = seedProgressPrinter(out, { everyMs: 60_000 });
    printer.listener({ written: 0, total: 100, elapsedMs: 0 });
    printer.listener({ written: 50, total: 100, elapsedMs: 1000 });
    printer.listener({ written: 100, total: 100, elapsedMs: 2000 });
    printer.done();
    expect(out.text().split('\r').filter(Boolean)).toHaveLength(3);
    expect(out.text()).not.toMatch(/\n.*\r/s);
    expect(out.text().endsWith('finishing\x1b[K\n')).toBe(true);
  });

  it('in a log prints a line at the start and then at most one per interval', () => {
    const out = stream(false);
    let t = 0;
    const printer = seedProgressPrinter(out, { everyMs: 5000, now: () => t });
    for (const written of [0, 10, 20, 30, 40]) {
      printer.listener({ written, total: 40, elapsedMs: t });
      t += 2000;
    }
    printer.done();
    expect(
      out
        .text()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.match(/: (\d+) of/)?.[1]),
    ).toEqual(['0', '30']);
  });
});
