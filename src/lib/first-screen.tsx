import { useLayoutEffect, useState, type ReactNode } from 'react';
import { nextTask } from './next-task';

/** The last of the stages after a fresh load's first screen that has come (0: its effects' task). */
let stagesDrawn = 0;

/**
 * Draws `children` after the app's first screen, and at once ever after. The task after the first
 * screen runs its effects (src/lib/effect-timing.ts); stage 1 comes a task after that, stage 2 a
 * task after stage 1.
 *
 * A fresh load draws its whole first screen in one render, when the page's data arrives: on a
 * phone that is one long task, the page's total blocking time (issue 14). Parts that sit in boxes
 * of a fixed size, whose contents move nothing else when they appear (the top bar's, the
 * sidebar's), wait here: the render is cut in tasks short enough not to block, the page's own
 * content and scroll position come first, and no layout shifts. Later navigations draw
 * everything at once.
 */
export function AfterFirstScreen({ children, stage = 1 }: { children: ReactNode; stage?: 1 | 2 }) {
  const [ready, setReady] = useState(stagesDrawn >= stage);
  useLayoutEffect(() => {
    if (ready) return;
    let live = true;
    const wait = (from: number) =>
      nextTask(() => {
        stagesDrawn = Math.max(stagesDrawn, from);
        if (from < stage) wait(from + 1);
        else if (live) setReady(true);
      });
    wait(stagesDrawn);
    return () => {
      live = false;
    };
  }, [ready, stage]);
  return ready ? children : null;
}
