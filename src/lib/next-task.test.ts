import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTask, taskByTask } from './next-task';

/** Resolves once the event loop has gone round `turns` times (setTimeout runs in a task of its own). */
const afterTasks = (turns: number) =>
  new Promise<void>((resolve) => {
    const go = (left: number) => (left === 0 ? resolve() : setTimeout(() => go(left - 1)));
    go(turns);
  });

/**
 * A step that leaves work for the end of its task: a chain of microtasks, all of which run before
 * the task ends, and only then. A next step that ran in the same task, or in a microtask, would
 * come before the chain's end.
 */
const step = (ran: string[], name: string) => () => {
  ran.push(name);
  void (async () => {
    for (let i = 0; i < 20; i++) await null;
    ran.push(`end of ${name}`);
  })();
};

describe('taskByTask', () => {
  it('runs every step in order, none in the caller’s task', async () => {
    const ran: string[] = [];
    taskByTask([step(ran, 'a'), step(ran, 'b'), step(ran, 'c')]);
    ran.push('caller');
    await Promise.resolve();
    expect(ran).toEqual(['caller']);
    await afterTasks(10);
    expect(ran).toEqual(['caller', 'a', 'end of a', 'b', 'end of b', 'c', 'end of c']);
  });
});

describe('nextTask', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('runs the callbacks queued after one that throws, and reports the error as uncaught', async () => {
    const reportError = vi.fn();
    vi.stubGlobal('reportError', reportError);
    const ran: string[] = [];
    nextTask(() => {
      throw new Error('broken');
    });
    nextTask(() => ran.push('after'));
    await afterTasks(10);
    expect(ran).toEqual(['after']);
    expect(reportError).toHaveBeenCalledWith(new Error('broken'));
  });
});
