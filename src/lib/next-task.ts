/**
 * Runs `callback` in the next task, right after the current one: through a message channel, as
 * React's scheduler does. Callbacks queued during one task share the next one, in order; one that
 * throws does not keep the others from running (its error is reported as uncaught). `setTimeout`
 * would do too, but browsers clamp nested timeouts to 4 ms and slow them to about once a second
 * in a background tab.
 */
const pending: Array<() => void> = [];
/** As an uncaught error: the window's `error` event and the console (`reportError`), else thrown in a task of its own. */
const report = (error: unknown) => {
  if (typeof reportError === 'function') reportError(error);
  else
    setTimeout(() => {
      throw error;
    });
};
const runPending = () => {
  for (const callback of pending.splice(0)) {
    try {
      callback();
    } catch (error) {
      report(error);
    }
  }
};
const channel = typeof MessageChannel === 'function' ? new MessageChannel() : null;
if (channel) {
  channel.port1.onmessage = runPending;
  // Node's ports (the component tests) would otherwise keep the process alive; browsers have no unref.
  (channel.port1 as { unref?: () => void }).unref?.();
}

export function nextTask(callback: () => void): void {
  pending.push(callback);
  if (pending.length > 1) return;
  if (channel) channel.port2.postMessage(null);
  else setTimeout(runPending);
}

/**
 * Runs `steps` one after the other, each in a later task than the step before: a long start cut
 * where it can be, so that no single task blocks the main thread for all of it (see
 * src/main.tsx). A step shares its task only with callbacks other code queued with nextTask. A
 * step that throws ends the sequence.
 */
export function taskByTask(steps: ReadonlyArray<() => void>): void {
  const [step, ...rest] = steps;
  if (!step) return;
  nextTask(() => {
    step();
    taskByTask(rest);
  });
}
