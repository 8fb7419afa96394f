/**
 * Renders the whole app (router, query client, routes) at a URL, as a user would open it.
 * Test-only: imported by *.test.tsx files, never by the app.
 */
import './browser-stubs';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, createApp } from '@/app';
import { resetCredentialsStore, setCredentials } from '@/lib/auth-store';
import { trackRenderedApp } from './rendered-apps';

export interface RenderAppOptions {
  /** Sign in with this key first (no key: signed out). */
  apiKey?: string;
}

export function renderApp(url: string, { apiKey }: RenderAppOptions = {}) {
  resetCredentialsStore();
  window.history.replaceState(null, '', url);
  if (apiKey) setCredentials({ baseUrl: window.location.origin, key: apiKey }, false);
  const { router, queryClient, dispose } = createApp();
  trackRenderedApp(dispose);
  const user = userEvent.setup();
  const result = render(<App router={router} queryClient={queryClient} />);
  return { ...result, router, queryClient, dispose, user };
}
