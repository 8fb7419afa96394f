import { options } from 'preact';

/**
 * Effects (`useEffect`) run in the task right after the render that scheduled them, as React runs
 * them, instead of Preact's default of waiting for the next animation frame. A chain that goes
 * through effects (a query observer picking up its new key, a chart measuring itself and drawing
 * again) then costs tasks, not frames. A message channel, as React's scheduler uses, and not
 * `setTimeout`, which browsers clamp to 4 ms once timeouts nest. The app runs on Preact
 * (docs/runtime.md); this module is imported once, by the entry and by the component tests.
 */
const pending: Array<() => void> = [];
const runPending = () => {
  for (const flush of pending.splice(0)) flush();
};
const channel = typeof MessageChannel === 'function' ? new MessageChannel() : null;
if (channel) {
  channel.port1.onmessage = runPending;
  // Node's ports (the component tests) would otherwise keep the process alive; browsers have no unref.
  (channel.port1 as { unref?: () => void }).unref?.();
}

options.requestAnimationFrame = (flush) => {
  pending.push(flush);
  if (pending.length > 1) return;
  if (channel) channel.port2.postMessage(null);
  else setTimeout(runPending);
};
