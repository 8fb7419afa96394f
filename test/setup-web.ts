import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadEsbuild } from './testing/esbuild';
import { disposeRenderedApps } from './testing/rendered-apps';

// The server compiles plugin code with esbuild, whose load fails under jsdom unless done so.
await loadEsbuild();

// Component tests run the reference server in process; on a busy 2-core machine (CI runs every
// project's workers at once) a page that compiles a plugin or runs an analysis took over 5 s to
// settle. A longer wait costs nothing when the page is right.
configure({ asyncUtilTimeout: 12_000 });

afterEach(() => {
  cleanup();
  disposeRenderedApps();
  sessionStorage.clear();
  localStorage.clear();
  // Test files share a document (vitest `isolate: false` for speed): nothing a dialog or a theme
  // left on <html> or <body> (scroll lock, pointer-events, classes) reaches the next test.
  for (const el of [document.documentElement, document.body]) {
    for (const { name } of [...el.attributes]) if (name !== 'lang') el.removeAttribute(name);
  }
  document.body.replaceChildren();
});
