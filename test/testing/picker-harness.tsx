/**
 * Test-only: mounts a picker as a screen would (a query client, the signed-in key, the value
 * held in state) and records every value it emits. Imported by the pickers' *.test.tsx only.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { resetCredentialsStore, setCredentials } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';

// jsdom has no layout: cmdk scrolls the active option into view.
if (typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = () => {};

function Stateful<T>({
  initial,
  onEmit,
  children,
}: {
  initial: T;
  onEmit: (v: T) => void;
  children: (value: T, set: (v: T) => void) => ReactNode;
}) {
  const [value, setValue] = useState(initial);
  return children(value, (next) => {
    onEmit(next);
    setValue(next);
  });
}

/** Renders `children(value, onChange)` with `initial` in state; `emitted` lists what onChange got. */
export function renderWithState<T>(
  apiKey: string,
  initial: T,
  children: (value: T, onChange: (v: T) => void) => ReactNode,
) {
  resetCredentialsStore();
  setCredentials({ baseUrl: window.location.origin, key: apiKey }, false);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  const emitted: T[] = [];
  const user = userEvent.setup();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <Stateful initial={initial} onEmit={(v) => emitted.push(v)}>
        {children}
      </Stateful>
    </QueryClientProvider>,
  );
  return { ...result, user, emitted, last: () => emitted.at(-1) };
}

type Call = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * Sends a small set of events to project `projectId` through `/batch/` (as an SDK would):
 * pageviews in two browsers, signups with a plan (and the person's email), purchases with an amount.
 */
export async function ingestPickerEvents(call: Call, projectId: number) {
  const { api_token: token } = await call<{ api_token: string }>('GET', `/api/projects/${projectId}/`);
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
  const batch = [
    ...Array.from({ length: 30 }, (_, i) => ({
      event: '$pageview',
      distinct_id: `user-${i % 5}`,
      timestamp: at(i + 1),
      properties: {
        $browser: i % 3 === 0 ? 'Firefox' : 'Chrome',
        $current_url: `https://hedgebox.example/${i % 4 === 0 ? 'pricing' : 'home'}`,
      },
    })),
    ...Array.from({ length: 4 }, (_, i) => ({
      event: 'user signed up',
      distinct_id: `user-${i}`,
      timestamp: at(i + 2),
      properties: { plan: i % 2 ? 'pro' : 'free', $set: { email: `user${i}@example.com` } },
    })),
    ...Array.from({ length: 3 }, (_, i) => ({
      event: 'purchase',
      distinct_id: `user-${i}`,
      timestamp: at(i + 3),
      properties: { amount: 10 * (i + 1), coupon: i === 0 },
    })),
  ];
  await call('POST', '/batch/', { api_key: token, batch });
}
