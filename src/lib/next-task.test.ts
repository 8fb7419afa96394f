import { describe, expect, it } from 'vitest';
import { taskByTask } from './next-task';

/** Resolves once the event loop has gone round `turns` times (setTimeout runs in a task of its own). */
const afterTasks = (turns: number) => new Promise<void>((resolve) => {
  const go = (left: number) => (left === 0 ? resolve() : setTimeout(() => go(left - 1)));
  go(turns);
});

describe('taskByTask', () => {
  it('runs every step in order, none in the caller’s task', async () => {
    const ran: string[] = [];
    taskByTask([() => ran.push('a'), () => ran.push('b'), () => ran.push('c')]);
    ran.push('caller');
    await Promise.resolve();
    expect(ran).toEqual(['caller']);
    await afterTasks(10);
    expect(ran).toEqual(['caller', 'a', 'b', 'c']);
  });

  it('gives each step a task of its own: what a step leaves for later in its task runs before the next step', async () => {
    const ran: string[] = [];
    taskByTask([
      () => {
        ran.push('first');
        // A microtask runs when the task that queued it ends: before the next step only if that
        // step is in a later task.
        queueMicrotask(() => ran.push('end of the first task'));
      },
      () => ran.push('second'),
    ]);
    await afterTasks(10);
    expect(ran).toEqual(['first', 'end of the first task', 'second']);
  });
});
