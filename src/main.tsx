import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createApp } from './app';
import './lib/effect-timing';
import { warmUp } from './lib/warm-up';
import { nextTask } from './lib/next-task';
import './styles.css';

warmUp();

// Three tasks instead of one: evaluating the modules, starting the router (its route tree, the
// history, the first match) and the first render. Each blocks a phone's main thread for a part
// of the time the three took together (issue 14's total blocking time).
nextTask(() => {
  const { router, queryClient } = createApp();
  nextTask(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    );
  });
});
