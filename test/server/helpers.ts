import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventStore } from '../../server/analytics/store/event-store.ts';
import { createApp, type AppOptions, type Logger } from '../../server/app.ts';
import { openDataDir } from '../../server/data-dir.ts';
import { DEMO_USER_EMAIL } from '../../server/seed/data.ts';
import { ensureDemoEvents, type DemoEventsResult } from '../../server/seed/events.ts';
import type { Store } from '../../server/store/store.ts';

export const HEDGEBOX = 'Hedgebox';
export const NORTHWIND = 'Northwind Analytics';

/** Tests read response bodies freely; shapes are asserted with the contract schemas where it matters. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJson = any;

export interface ApiResponse<T = AnyJson> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null for an empty body. */
  body: T;
  text: string;
}

export interface RequestOptions {
  /** Bearer key; defaults to the seeded demo key (`*`). Pass null to send no Authorization. */
  key?: string | null;
  /** JSON-encoded as the body. */
  json?: unknown;
  /** Sent as is (e.g. invalid JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface KeyOptions {
  scopes: string[];
  /** Limit the key to these organization ids. */
  organizations?: string[];
  /** Owner of the key; default the demo user. */
  userEmail?: string;
  label?: string;
}

export interface TestServer {
  dir: string;
  store: Store;
  /** `<dir>/events.duckdb`: empty unless created by {@link createTestServerWithEvents}; opened on first use. */
  events: EventStore;
  app: ReturnType<typeof createApp>;
  /** The seeded demo key (scope `*`, user demo@example.com). */
  demoKey: string;
  /** Ids of the seeded organizations by name. */
  orgIds: Record<string, string>;
  /** A new key with the given scopes; returns its plaintext. */
  makeKey(options: KeyOptions): string;
  request<T = AnyJson>(method: string, url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = AnyJson>(url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Closes the stores and removes the temp dir (await it when the event store was used). */
  close(): Promise<void>;
}

/** A temp dir under the OS temp dir, removed by `close()`. */
export const makeTempDir = (prefix = 'ref-server-') => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** Requests to an app in process, as `key` (the demo key unless told; `null`: none), JSON parsed. */
export function requester(app: { request: ReturnType<typeof createApp>['request'] }, demoKey: string) {
  return async function request<T = AnyJson>(
    method: string,
    url: string,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? demoKey : opts.key;
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    let body: string | undefined = opts.rawBody;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['Content-Type'] = 'application/json';
    }
    const res = await app.request(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    return { status: res.status, headers: res.headers, text, body: (text && isJson ? JSON.parse(text) : null) as T };
  };
}

/** A fresh, seeded data dir with its store and app; each test file gets its own. */
export function createTestServer(
  options: {
    now?: () => Date;
    logger?: Partial<Logger>;
    staticDir?: string;
    analyticsCacheTtlMs?: number;
    seedNow?: Date;
  } = {},
): TestServer {
  const dir = makeTempDir();
  // The demo data is dated relative to the seed's moment: the injected clock's, unless told.
  const seedNow = options.seedNow ?? options.now?.();
  const { store, events, demoKey } = openDataDir(dir, seedNow ? { now: seedNow } : {});
  if (!demoKey) throw new Error('seed did not produce a demo key');
  const appOptions: AppOptions = { store, events, staticDir: options.staticDir ?? path.join(dir, 'no-dist') };
  if (options.now) appOptions.now = options.now;
  if (options.logger) appOptions.logger = options.logger;
  if (options.analyticsCacheTtlMs !== undefined) appOptions.analyticsCacheTtlMs = options.analyticsCacheTtlMs;
  const app = createApp(appOptions);

  const orgIds: Record<string, string> = {};
  for (const row of store.db.prepare('SELECT id, name FROM organizations').all() as { id: string; name: string }[]) {
    orgIds[row.name] = row.id;
  }

  const request = requester(app, demoKey);

  return {
    dir,
    store,
    events,
    app,
    demoKey,
    orgIds,
    makeKey({ scopes, organizations, userEmail = DEMO_USER_EMAIL, label = 'test key' }) {
      const user = store.users.getByEmail(userEmail);
      if (!user) throw new Error(`no user ${userEmail}`);
      return store.apiKeys.create(
        { user_id: user.id, label, scopes, scoped_organizations: organizations ?? null },
        new Date().toISOString(),
      ).key;
    },
    request,
    get: (url, opts) => request('GET', url, opts),
    async close() {
      store.close();
      try {
        await events.close();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A test server whose event store holds the deterministic demo events: `demoEvents` in the
 * first seeded project (small sets in the others), dated over the 90 days before `seedNow`.
 */
export async function createTestServerWithEvents(
  options: Parameters<typeof createTestServer>[0] & { demoEvents: number; seedNow?: Date },
): Promise<TestServer & { seeded: DemoEventsResult | null }> {
  const { demoEvents, ...rest } = options;
  const { seedNow } = options;
  const server = createTestServer(rest);
  const seeded = await ensureDemoEvents(server.store, server.events, { count: demoEvents, now: seedNow ?? new Date() });
  return { ...server, seeded };
}
