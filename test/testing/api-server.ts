/**
 * The reference server in process, for component tests: a fresh seeded store on a temp data dir
 * per test, its Hono app's `fetch` behind MSW. A component test therefore only passes against the
 * API's real behaviour; `server.use(...)` overrides (see overrides.ts) inject only what the server
 * cannot be made to do (5xx, network failure, slowness).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createApp } from '../../server/app.ts';
import { DEMO_USER_EMAIL } from '../../server/seed/data.ts';
import { seed } from '../../server/seed/seed.ts';
import { openStore, storeFile, type Store } from '../../server/store/store.ts';

/** The seeded organizations (server/seed/data.ts): the same ids, names and dates every run. */
export const HEDGEBOX = 'Hedgebox';
export const NORTHWIND = 'Northwind Analytics';

export interface TestApi {
  /** The server's store: for assertions on what was really stored, and for setting up what no endpoint creates. */
  store: Store;
  /** The seeded demo key (scope `*`). */
  demoKey: string;
  /** A seeded organization's id, by name. */
  organizationId(name: string): string;
  /** A new key of the demo user with these scopes; returns its plaintext. */
  makeKey(scopes: string[]): string;
  /** Calls the API as the demo key (set-up through the real endpoints); throws on a non-2xx answer. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

interface Running extends TestApi {
  app: ReturnType<typeof createApp>;
  dir: string;
}

let running: Running | null = null;

function start(): Running {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-test-api-'));
  const store = openStore(storeFile(dir));
  const { demoKey } = seed(store);
  // A component test's analyses are tiny: one that waits past the production budget (9 s) is a
  // starved machine, not a slow query, and must not fail the page under test.
  const app = createApp({ store, staticDir: path.join(dir, 'no-dist'), analyticsTimeoutMs: 60_000 });
  return {
    app,
    dir,
    store,
    demoKey,
    organizationId(name) {
      const row = store.db.prepare('SELECT id FROM organizations WHERE name = ?').get(name) as
        { id: string } | undefined;
      if (!row) throw new Error(`no organization named ${name}`);
      return row.id;
    },
    makeKey(scopes) {
      const user = store.users.getByEmail(DEMO_USER_EMAIL);
      if (!user) throw new Error('the seed has no demo user');
      return store.apiKeys.create({ user_id: user.id, label: 'test key', scopes }, new Date().toISOString()).key;
    },
    async call<T>(method: string, url: string, body?: unknown): Promise<T> {
      const response = await app.request(url, {
        method,
        headers: {
          Authorization: `Bearer ${demoKey}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}

function stop(): void {
  if (!running) return;
  running.store.close();
  fs.rmSync(running.dir, { recursive: true, force: true });
  running = null;
}

const toRunningServer = ({ request }: { request: Request }) => {
  if (!running) throw new Error('the test API is not running: call setupTestApi() in the test file');
  return running.app.fetch(request);
};

/** Where the seed's webhook destinations and HTTP batch exports send (server/seed). */
const SEEDED_HOOK_ORIGIN = 'https://hooks.hedgebox.example';

/**
 * Every `/api/` request the app makes goes to the in-process server (any origin), and so does the
 * public data of a shared insight (`/shared/<token>/insight/`, no key).
 */
export const mswServer = setupServer(
  http.all('*/api/*', toRunningServer),
  http.all('*/shared/:accessToken/insight/', toRunningServer),
  // The seeded webhook destination delivers the events a test ingests to this made-up host: it takes them.
  http.post(`${SEEDED_HOOK_ORIGIN}/*`, () => new HttpResponse(null, { status: 204 })),
);

/**
 * Call at the top of a component test file: MSW on, a fresh seeded server per test, overrides
 * reset after each. Returns the running server (valid inside a test).
 */
export function setupTestApi(): () => TestApi {
  beforeAll(() => mswServer.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    running = start();
  });
  afterEach(() => {
    mswServer.resetHandlers();
    mswServer.events.removeAllListeners();
    stop();
  });
  afterAll(() => mswServer.close());
  return () => {
    if (!running) throw new Error('the test API runs only inside a test');
    return running;
  };
}
