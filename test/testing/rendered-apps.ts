/**
 * The apps renderApp made in this test. Test files share a document and its window.history
 * (vitest `isolate: false`): an app left running after its test could still answer a late 401 by
 * navigating to sign-in, which every later router hears through the patched history. setup-web.ts
 * disposes of them after each test, newest first, so each history restores the one it wrapped.
 */
const disposers: Array<() => void> = [];

export function trackRenderedApp(dispose: () => void): void {
  disposers.push(dispose);
}

export function disposeRenderedApps(): void {
  for (let dispose = disposers.pop(); dispose; dispose = disposers.pop()) dispose();
}
