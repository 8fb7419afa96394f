import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createApp } from './app';
import { consumeKeyFromFragment } from './lib/auth';
import './lib/effect-timing';
import { warmUp } from './lib/warm-up';
import { nextTask } from './lib/next-task';
import './styles.css';

warmUp();

// The start in tasks of its own instead of one: taking a sign-in link's key (the tab's storage),
// building the router (its route tree and history), its first load (the match, the page's
// requests and code on their way) and the first render. Each blocks a phone's main thread for a
// part of the time they took together (issue 14's total blocking time). The router mounts on a
// load already under way and does not start another.
nextTask(() => {
  consumeKeyFromFragment();
  nextTask(() => {
    const { router, queryClient } = createApp();
    nextTask(() => {
      router.load().catch(console.error);
      nextTask(() => {
        createRoot(document.getElementById('root')!).render(
          <StrictMode>
            <App router={router} queryClient={queryClient} />
          </StrictMode>,
        );
      });
    });
  });
});
