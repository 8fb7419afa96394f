import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createApp } from './app';
import { consumeKeyFromFragment } from './lib/auth';
import { formatterSteps } from './lib/dates';
import { isApple } from './lib/platform';
import { taskByTask } from './lib/next-task';
import './styles.css';

// The start, one step per task: taking a sign-in link's key (the tab's storage), building the
// router (its route tree and history), the router's first load (the match, the page's requests
// and code go out) and the first render. Together they would block a phone's main thread in one
// long task. The router mounts on the load already under way and does not start another, unless
// the address is not in its canonical form (defaults in the search): then it replaces the address
// and loads that instead. The date formatters and the platform (for the shortcuts' labels) come
// last, each in a task of its own, while the page's data is on the wire.
// StrictMode checks the app in development (effects mounted, cleaned up and mounted again); the
// production build ignores it.
let app: ReturnType<typeof createApp>;
taskByTask([
  () => consumeKeyFromFragment(),
  () => {
    app = createApp();
  },
  () => {
    app.router.load().catch(console.error);
  },
  () => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App router={app.router} queryClient={app.queryClient} />
      </StrictMode>,
    );
  },
  ...formatterSteps,
  isApple,
]);
