import { options } from 'preact';

/**
 * Effects (`useEffect`) run in the task right after the render that scheduled them, as React runs
 * them, instead of Preact's default of waiting for the next animation frame. A chain that goes
 * through an effect (a query observer picking up its new key, a subscription, a focus move) then
 * costs a task, not a frame: about 16 ms less per step on a 60 Hz screen. The app runs on Preact
 * (docs/runtime.md); this module is imported once, by the entry and by the component tests.
 */
options.requestAnimationFrame = (flush) => {
  setTimeout(flush);
};
