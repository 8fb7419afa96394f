/**
 * What jsdom lacks and the app's libraries call (sonner: matchMedia, pointer capture on a toast;
 * Radix: ResizeObserver). matchMedia answers width queries for jsdom's window (1024 px wide:
 * the desktop layout, sidebar beside the page); any other query does not match.
 */
const widthMatches = (query: string): boolean => {
  const m = /^\((min|max)-width:\s*([\d.]+)(px|rem|em)\)$/.exec(query.trim());
  if (!m) return false;
  const px = Number(m[2]) * (m[3] === 'px' ? 1 : 16);
  return m[1] === 'min' ? window.innerWidth >= px : window.innerWidth <= px;
};
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: widthMatches(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (typeof globalThis.ResizeObserver !== 'function') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

window.scrollTo = () => {};

// sonner captures the pointer when a toast (its action button included) is pressed.
if (typeof Element.prototype.setPointerCapture !== 'function') {
  Element.prototype.setPointerCapture = () => {};
  Element.prototype.releasePointerCapture = () => {};
  Element.prototype.hasPointerCapture = () => false;
}
