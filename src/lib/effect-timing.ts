import { options } from 'preact';
import { nextTask } from './next-task';

/**
 * Effects (`useEffect`) run in the task right after the render that scheduled them, as React runs
 * them, instead of Preact's default of waiting for the next animation frame. A chain that goes
 * through effects (a query observer picking up its new key, a chart measuring itself and drawing
 * again) then costs tasks, not frames. The app runs on Preact (docs/runtime.md); this module is
 * imported once, by the entry and by the component tests.
 */
options.requestAnimationFrame = nextTask;
