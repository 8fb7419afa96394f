import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, HEDGEBOX, type TestServer } from '../server/helpers.ts';
import { loadEvents } from './harness.ts';

/** The analytics cache can be turned off (benchmarks measure the computation, not the cache). */
const NOW = new Date('2024-03-20T12:00:00Z');
let server: TestServer;
let projectId: number;

beforeAll(async () => {
  server = createTestServer({ now: () => NOW, analyticsCacheTtlMs: 0 });
  const row = server.store.db
    .prepare(
      'SELECT p.id FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id LIMIT 1',
    )
    .get(HEDGEBOX) as { id: number };
  projectId = row.id;
  await loadEvents(server.events, projectId, [
    {
      uuid: '00000000-0000-4000-8000-000000000001',
      event: '$pageview',
      distinct_id: 'u1',
      person_id: 'u1',
      timestamp: Date.parse('2024-03-18T10:00:00Z'),
      properties: {},
      person_properties: {},
    },
  ]);
});
afterAll(async () => {
  await server.close();
});

describe('analytics cache turned off', () => {
  it('computes every identical request again', async () => {
    const body = { events: [{ id: '$pageview' }], date_from: '2024-03-14', date_to: '2024-03-19' };
    const url = `/api/projects/${projectId}/insights/trend/`;
    const first = await server.request('POST', url, { json: body });
    const second = await server.request('POST', url, { json: body });
    expect(first.status).toBe(200);
    expect(first.body.result[0].count).toBe(1);
    expect(second.body.is_cached).toBe(false);
    expect(second.body.result).toEqual(first.body.result);
  });
});
