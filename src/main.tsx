import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createApp } from './app';
import './lib/effect-timing';
import './styles.css';

const { router, queryClient } = createApp();

const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>,
  );
});
