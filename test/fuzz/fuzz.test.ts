import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, HEDGEBOX, makeTempDir, type TestServer } from '../server/helpers.ts';
import { captureOperations, operationsOf, type FuzzRequest, type Operation } from './requests.ts';

/**
 * Every route, generated from the server's own OpenAPI document, with fitting and hostile
 * values: no request gets a 5xx, and the server answers afterwards. FUZZ_RUNS sets the runs per
 * route (bench/fuzz.mjs runs 1,000+ against a server process).
 */

// 12 per route keeps it near 15 s in npm test as routes are added; seeds differ run by run.
const RUNS = Number(process.env.FUZZ_RUNS) || 12;
let server: TestServer;
let dist: string;
let operations: Operation[] = [];

const send = (req: FuzzRequest) =>
  server.app.request(req.url, {
    method: req.method,
    headers: {
      Authorization: `Bearer ${server.demoKey}`,
      ...(req.contentType ? { 'Content-Type': req.contentType } : {}),
    },
    ...(req.body === undefined ? {} : { body: req.body }),
  });

beforeAll(async () => {
  // A built app to fall back to, as in production (unbuilt, every non-API path is a 503 "run npm run build").
  dist = makeTempDir('fuzz-dist-');
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Dashboard</title>');
  server = createTestServer({ staticDir: dist });
  const orgId = server.orgIds[HEDGEBOX]!;
  const project = server.store.db
    .prepare('SELECT id, api_token FROM projects WHERE organization_id = ? ORDER BY id')
    .get(orgId) as { id: number; api_token: string };
  const exportIds = server.store.db
    .prepare('SELECT id FROM batch_exports WHERE organization_id = ?')
    .pluck()
    .all(orgId) as string[];
  const batch = Array.from({ length: 200 }, (_, i) => ({
    event: ['$pageview', 'signup', 'purchase'][i % 3],
    distinct_id: `u${i % 20}`,
    timestamp: new Date(Date.now() - i * 1_800_000).toISOString(),
    properties: { amount: i, $current_url: `/p/${i % 5}`, $browser: i % 2 ? 'Chrome' : 'Firefox' },
  }));
  await server.app.request('/batch/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api_key: project.api_token, batch }),
  });
  const doc = (await server.get('/api/schema/')).body;
  const insightIds = (
    server.store.db.prepare('SELECT id FROM insights WHERE project_id = ?').pluck().all(project.id) as number[]
  ).map(String);
  const tokens = server.store.db
    .prepare('SELECT access_token FROM insight_sharing WHERE enabled = 1')
    .pluck()
    .all() as string[];
  const ids = {
    id: [orgId, String(project.id), ...exportIds, ...insightIds],
    organization_id: [orgId],
    project_id: [String(project.id)],
    insight_id: insightIds,
    access_token: tokens,
  };
  // Deletions last, so they do not take the seeded objects away from the other routes.
  operations = [...operationsOf(doc, ids), ...captureOperations(project.api_token)].sort(
    (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
  );
  expect(operations.length).toBeGreaterThan(20);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('fuzzing every route', () => {
  it(
    `no 5xx in ${RUNS} generated requests per route, and the server still answers`,
    async () => {
      const seen = new Map<string, number>();
      for (const op of operations) {
        await fc.assert(
          fc.asyncProperty(op.arbitrary, async (req) => {
            const res = await send(req);
            await res.arrayBuffer();
            const key = `${op.method} ${op.path}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
            expect(
              res.status,
              `${req.method} ${req.url.slice(0, 200)}\n${(req.body ?? '').slice(0, 300)}`,
            ).toBeLessThan(500);
          }),
          { numRuns: RUNS },
        );
      }
      expect(seen.size).toBe(operations.length);
      expect((await server.get('/api/organizations/')).status).toBe(200);
    },
    Math.max(120_000, RUNS * 4_000),
  ); // about 1.3 s a run over all routes on an idle machine
});
