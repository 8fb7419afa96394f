import { useLayoutEffect, useState, type ReactNode } from 'react';
import { nextTask } from './next-task';

let drawn = false;

/**
 * Draws `children` a task after the app's first screen, and at once ever after.
 *
 * A fresh load draws its whole first screen in one render, when the page's data arrives: on a
 * phone that is one long task, the page's total blocking time (issue 14). Parts that sit in boxes
 * of a fixed size, whose contents move nothing else when they appear (the top bar's, the
 * sidebar's), wait here for the next task: the render is cut in two, the page's own content and
 * scroll position come first, and no layout shifts. Later navigations draw everything at once.
 */
export function AfterFirstScreen({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(drawn);
  useLayoutEffect(() => {
    if (ready) return;
    let live = true;
    nextTask(() => {
      drawn = true;
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [ready]);
  return ready ? children : null;
}
