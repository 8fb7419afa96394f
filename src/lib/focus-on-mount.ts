/**
 * A ref that gives its element focus when it mounts, for a field that opens to be typed in (a
 * rename, a picker's search). React's `autoFocus` prop did this, but the app runs on Preact
 * (docs/runtime.md), which only writes the `autofocus` attribute, and a browser honours that
 * once per page. The ref runs as the element is attached, before any dialog's focus trap looks
 * for something to focus, so the trap finds focus already inside and leaves it there.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
