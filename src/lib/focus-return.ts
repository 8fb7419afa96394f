import { useCallback, useState } from 'react';

/** What has focus now, unless nothing does (the page itself). */
const focused = () =>
  typeof document !== 'undefined' &&
  document.activeElement instanceof HTMLElement &&
  document.activeElement !== document.body
    ? document.activeElement
    : null;

/**
 * Gives focus back, when a dialog closes, to what had it when the dialog opened: Radix returns
 * focus only to a `Dialog.Trigger`, and the app's dialogs open from state (a button, a shortcut,
 * a count in a chart), so without this focus fell to the page's start and a keyboard user lost
 * their place. The opener is read in the render that opens the dialog, before anything in it
 * takes focus (a field focused on mount, Radix's own first-field focus). Spread the result on
 * the dialog's Content (`onCloseAutoFocus`).
 */
export function useFocusReturn(open: boolean): { onCloseAutoFocus: (event: Event) => void } {
  const [seen, setSeen] = useState<{ open: boolean; opener: HTMLElement | null }>({ open: false, opener: null });
  // Set while rendering (React's pattern for state that follows a prop): an effect would run
  // after the dialog's field had taken focus.
  if (seen.open !== open) setSeen({ open, opener: open ? focused() : seen.opener });
  // Read when the dialog closes, renders after the one that opened it.
  const opener = seen.opener;
  const onCloseAutoFocus = useCallback(
    (event: Event) => {
      // Opened by a shortcut on the page: Radix's own.
      if (!opener) return;
      event.preventDefault();
      // The opener may be gone (its row deleted, the page left) or disabled (an Upgrade done): the
      // page's heading then, the place to start again from, rather than nowhere.
      if (opener.isConnected && !opener.matches(':disabled')) opener.focus();
      if (document.activeElement !== opener) focusPageHeading();
    },
    [opener],
  );
  return { onCloseAutoFocus };
}

/** Focus on the page's main heading (made focusable from script only), when there is one. */
export function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
}
