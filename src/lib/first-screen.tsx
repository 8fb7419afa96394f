import { createContext, useContext, useLayoutEffect, useState, type ReactNode } from 'react';
import { nextTask } from './next-task';

/**
 * When each part of a fresh load's first screen is drawn: stage n, n tasks after the task that
 * runs the effects of the frame (the layout, drawn when the page's data has arrived). What a task
 * draws runs its effects a task later (src/lib/effect-timing.ts):
 * - the page's content (1) comes right after the frame's effects;
 * - a list page's table (2) with the page's effects;
 * - the sidebar, the drawer's button and the breadcrumbs (4) after the table's effects;
 * - the top bar's actions (5), search and sign out, after those.
 */
export const FIRST_SCREEN = { page: 1, table: 2, navigation: 4, actions: 5 } as const;
export type FirstScreenStage = (typeof FIRST_SCREEN)[keyof typeof FIRST_SCREEN];

/** How many tasks after the first screen's frame have come (0: its effects' task, or none yet). */
let stagesDrawn = 0;

const DrawnLate = createContext<(() => void) | undefined>(undefined);

/**
 * Told each time a part of the first screen has been drawn late, once it is in the document: the
 * page may have grown (the app shell scrolls a reloaded page back to where it was).
 */
export const DrawnLateProvider = DrawnLate.Provider;

/**
 * Draws `children` at `stage` (FIRST_SCREEN) on a fresh load's first screen, and at once ever
 * after.
 *
 * A fresh load draws its whole first screen when the page's data arrives: in one render, on a
 * phone, that is one long task, the page's total blocking time (issue 14). Cut in parts a task
 * apart, no task blocks for long. A part may only wait here if nothing drawn before it moves when
 * it comes: the last thing on its page (a list page's table), or a box of a fixed size (the top
 * bar's, the sidebar's). Later navigations draw everything at once.
 */
export function AfterFirstScreen({ children, stage }: { children: ReactNode; stage: FirstScreenStage }) {
  const [ready, setReady] = useState(stagesDrawn >= stage);
  const [late] = useState(!ready);
  const drawnLate = useContext(DrawnLate);
  useLayoutEffect(() => {
    if (ready && late) drawnLate?.();
    // Once, when drawn late: not again when the callback changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, late]);
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
