import { describe, expect, it } from 'vitest';
import { createAnalysisGate } from '../../server/analytics/admission.ts';
import { QueryCancelledError, QueryTimeoutError } from '../../server/analytics/store/duckdb.ts';

/** Analyses beyond the gate's limit wait their turn, within their time budget, and leave on cancel. */

const later = () => Date.now() + 10_000;
/** A piece of work that finishes when `finish` is called, recording when it started. */
function pending(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    work: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    finish: () => finish(),
  };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('analysis gate', () => {
  it('runs at most `limit` at once, the others in the order they came', async () => {
    const gate = createAnalysisGate(2);
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => pending(log, n));
    const runs = [a, b, c, d].map((p) => gate.run(p!.work, { deadline: later() }));
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    b!.finish();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    a!.finish();
    c!.finish();
    d!.finish();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'd']);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start a', 'start b', 'start c', 'start d']);
  });

  it('a failed analysis gives its turn to the next one', async () => {
    const gate = createAnalysisGate(1);
    const failing = gate.run(
      async () => {
        throw new Error('boom');
      },
      { deadline: later() },
    );
    const next = gate.run(async () => 'next', { deadline: later() });
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('next');
  });

  it('an analysis whose budget ends while it waits is a timeout, and never runs', async () => {
    const gate = createAnalysisGate(1);
    const log: string[] = [];
    const first = pending(log, 'first');
    const running = gate.run(first.work, { deadline: later() });
    let ran = false;
    const waiting = gate.run(
      async () => {
        ran = true;
      },
      { deadline: Date.now() + 50 },
    );
    await expect(waiting).rejects.toBeInstanceOf(QueryTimeoutError);
    const after = gate.run(async () => 'after', { deadline: later() });
    first.finish();
    await running;
    expect(await after).toBe('after');
    expect(ran).toBe(false);
  });

  it('a cancelled analysis leaves the queue at once (or never joins it)', async () => {
    const gate = createAnalysisGate(1);
    const log: string[] = [];
    const first = pending(log, 'first');
    const running = gate.run(first.work, { deadline: later() });
    const controller = new AbortController();
    const waiting = gate.run(async () => 'never', { deadline: later(), signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(QueryCancelledError);
    await expect(
      gate.run(async () => 'never', { deadline: later(), signal: controller.signal }),
    ).rejects.toBeInstanceOf(QueryCancelledError);
    first.finish();
    await running;
    expect(await gate.run(async () => 'free again', { deadline: later() })).toBe('free again');
  });
});
