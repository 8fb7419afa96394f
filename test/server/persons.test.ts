import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelPersonSchema, pageSchema, personEventSchema } from '../../src/contract/index.ts';
import type { CaptureEvent } from '../../server/analytics/store/ingest-parse.ts';
import { createTestServer, HEDGEBOX, type TestServer } from './helpers.ts';

/**
 * A person page's data: `{PRJ}/persons/:id/` and `{PRJ}/events/?person_id=`. Ada browses as
 * `anon-1`, signs up as `ada` ($identify merges the two), and a second project has its own Bob.
 */
let n = 0;
const ev = (event: string, distinctId: string, minute: number, over: Partial<CaptureEvent> = {}): CaptureEvent => ({
  uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  event,
  distinct_id: distinctId,
  timestamp: new Date(Date.UTC(2024, 2, 20, 10, minute)),
  properties: { n },
  set: null,
  setOnce: null,
  ...over,
});

let server: TestServer;
let project = 0;
let other = 0;
const personOf = async (team: number, distinctId: string) =>
  (
    await server.events.all<{ id: string }>(
      'SELECT person_id::VARCHAR AS id FROM person_distinct_ids WHERE team_id = $1 AND distinct_id = $2',
      [team, distinctId],
    )
  )[0]!.id;

beforeAll(async () => {
  server = createTestServer({ now: () => new Date('2024-03-21T00:00:00Z') });
  const rows = server.store.db
    .prepare(
      'SELECT p.id FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id',
    )
    .all(HEDGEBOX) as { id: number }[];
  project = rows[0]!.id;
  other = project + 1000;
  await server.events.append(project, [
    ev('$pageview', 'anon-1', 1, { properties: { $current_url: '<b>https://x.io/</b>' } }),
    ev('$pageview', 'anon-1', 2),
    ev('signed_up', 'ada', 3, { set: { email: 'ada@x.io', plan: 'pro', note: '<script>alert(1)</script>' } }),
    ev('$identify', 'ada', 4, { properties: { $anon_distinct_id: 'anon-1' } }),
    ev('$pageview', 'ada', 5),
  ]);
  await server.events.append(other, [ev('$pageview', 'bob', 1)]);
});
afterAll(async () => {
  await server.close();
});

describe('GET {PRJ}/persons/:id/', () => {
  it('answers the person: name from its email, every distinct id, its properties as stored', async () => {
    const id = await personOf(project, 'ada');
    const res = await server.get(`/api/projects/${project}/persons/${id}/`);
    expect(res.status, res.text).toBe(200);
    expect(funnelPersonSchema.parse(res.body)).toEqual({
      id,
      uuid: id,
      name: 'ada@x.io',
      distinct_ids: ['ada', 'anon-1'],
      is_identified: true,
      created_at: '2024-03-20T10:01:00.000Z',
      properties: { email: 'ada@x.io', plan: 'pro', note: '<script>alert(1)</script>' },
    });
    // Upper case is the same id.
    expect((await server.get(`/api/projects/${project}/persons/${id.toUpperCase()}/`)).status).toBe(200);
  });

  it("404 for an unknown id, for another project's person and for a path that is not a UUID", async () => {
    expect((await server.get(`/api/projects/${project}/persons/00000000-0000-4000-8000-000000000999/`)).status).toBe(
      404,
    );
    expect((await server.get(`/api/projects/${project}/persons/${await personOf(other, 'bob')}/`)).status).toBe(404);
    expect((await server.get(`/api/projects/${project}/persons/not-a-uuid/`)).status).toBe(404);
    // The funnel's persons keep their own address.
    expect(
      (
        await server.get(
          `/api/projects/${project}/persons/funnel/?events=${encodeURIComponent('[{"id":"$pageview"}]')}&funnel_step=1`,
        )
      ).status,
    ).toBe(200);
  });
});

describe('GET {PRJ}/events/?person_id=', () => {
  const eventsOf = async (person: string, window = '') => {
    const res = await server.get(`/api/projects/${project}/events/?person_id=${person}${window}`);
    expect(res.status, res.text).toBe(200);
    return pageSchema(personEventSchema).parse(res.body);
  };

  it('lists the events of all its distinct ids, newest first, a page at a time', async () => {
    const id = await personOf(project, 'ada');
    const all = await eventsOf(id);
    expect(all.count).toBe(5);
    expect(all.results.map((e) => [e.event, e.distinct_id, e.timestamp])).toEqual([
      ['$pageview', 'ada', '2024-03-20T10:05:00.000Z'],
      ['$identify', 'ada', '2024-03-20T10:04:00.000Z'],
      ['signed_up', 'ada', '2024-03-20T10:03:00.000Z'],
      ['$pageview', 'anon-1', '2024-03-20T10:02:00.000Z'],
      ['$pageview', 'anon-1', '2024-03-20T10:01:00.000Z'],
    ]);
    expect(all.results[4]!.properties).toEqual({ $current_url: '<b>https://x.io/</b>' });
    const second = await eventsOf(id, '&limit=2&offset=2');
    expect(second.results.map((e) => e.event)).toEqual(['signed_up', '$pageview']);
    expect(second.next).toMatch(/limit=2&offset=4$/);
    expect(second.previous).toMatch(/limit=2$/);
  });

  it("none for another project's person; 400 naming person_id when it is missing or not a UUID", async () => {
    expect((await eventsOf(await personOf(other, 'bob'))).count).toBe(0);
    for (const query of ['', '?person_id=ada', '?person_id=']) {
      const res = await server.get(`/api/projects/${project}/events/${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ type: 'validation_error', attr: 'person_id' });
    }
    const res = await server.get(
      `/api/projects/${project}/events/?person_id=${await personOf(project, 'ada')}&limit=-1`,
    );
    expect(res.body).toMatchObject({ attr: 'limit' });
  });
});
