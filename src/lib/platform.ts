let apple: boolean | undefined;

/**
 * Whether the device is Apple's (shortcuts read ⌘ there, Ctrl elsewhere). Asked once: the first
 * read of `navigator.platform` took 1–2 ms of a phone-emulated render, so the entry asks it in a
 * start-up step of its own (src/main.tsx), while the page's data is on the wire.
 */
export function isApple(): boolean {
  return (apple ??=
    typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent));
}
