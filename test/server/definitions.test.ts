import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventDefinitionSchema,
  pageSchema,
  propertyDefinitionSchema,
  propertyValueSchema,
} from '../../src/contract/index.ts';
import { z } from '../../src/contract/z.ts';
import { inTransaction } from '../../server/analytics/store/event-store.ts';
import { compactEventProperties } from '../../server/analytics/store/property-stats.ts';
import { createTestServer, HEDGEBOX, NORTHWIND, type AnyJson, type TestServer } from './helpers.ts';

/** event_definitions/, property_definitions/ and events/values/: the builders' pickers, over events ingested here. */

const NOW = new Date('2025-06-01T12:00:00.000Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();
const WEIRD = "we\"ird.key/ü 'x'";

let server: TestServer;
let projectId: number;
let otherProjectId: number;
let token: string;
const base = () => `/api/projects/${projectId}`;

const ingest = async (batch: unknown[]) => {
  const res = await server.app.request('/batch/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api_key: token, batch }),
  });
  expect(res.status).toBe(200);
};
const ev = (event: string, distinctId: string, timestamp: string, properties: Record<string, unknown> = {}) => ({
  event,
  distinct_id: distinctId,
  timestamp,
  properties,
});

beforeAll(async () => {
  server = createTestServer({ now: () => NOW });
  const projects = server.store.db
    .prepare(
      'SELECT p.id, p.api_token, o.name FROM projects p JOIN organizations o ON o.id = p.organization_id ORDER BY p.id',
    )
    .all() as { id: number; api_token: string; name: string }[];
  const mine = projects.find((p) => p.name === HEDGEBOX)!;
  projectId = mine.id;
  token = mine.api_token;
  otherProjectId = projects.find((p) => p.name === NORTHWIND)!.id;
  const batch = [
    // $pageview: 4 in the window; signup: 2 in the window and 1 long ago; Purchase: 1 long ago only.
    ...['Chrome', 'Chrome', 'Firefox', 'Safari'].map((browser, i) =>
      ev('$pageview', `u${i}`, daysAgo(i + 1), {
        $browser: browser,
        $current_url: `https://x.example/${i}`,
        plan: i % 2 ? 'pro' : 'Free',
      }),
    ),
    ev('signup', 'u1', daysAgo(2), {
      amount: 12.5,
      is_trial: true,
      signed_at: '2025-05-30T10:00:00Z',
      [WEIRD]: 'odd value',
      $set: { age: 31, company: 'Acme' },
    }),
    ev('signup', 'u2', daysAgo(3), { amount: 3, is_trial: false, signed_at: '2025-05-29', [WEIRD]: 'odd value' }),
    ev('signup', 'u3', daysAgo(60), { amount: 7, $set: { age: 40 } }),
    ev('Purchase', 'u0', daysAgo(45), { amount: 'n/a' }),
  ];
  await ingest(batch);
});
afterAll(async () => {
  await server.close();
});

const get = (path: string, key?: string) => server.get(`${base()}${path}`, key === undefined ? {} : { key });
const names = (body: AnyJson) => (body.results as { name: string }[]).map((r) => r.name);

describe('event_definitions/', () => {
  it('lists event names by 30-day volume, then name, with first and last time seen', async () => {
    const res = await get('/event_definitions/');
    expect(res.status).toBe(200);
    const page = pageSchema(eventDefinitionSchema).parse(res.body);
    expect(page.results.map((d) => [d.name, d.volume_30_day])).toEqual([
      ['$pageview', 4],
      ['signup', 2],
      ['Purchase', 0],
    ]);
    const signup = page.results.find((d) => d.name === 'signup')!;
    expect(signup.created_at).toBe(daysAgo(60));
    expect(signup.last_seen_at).toBe(daysAgo(2));
    expect(signup.query_usage_30_day).toBeNull();
    expect(page.count).toBe(3);
    expect(new Set(page.results.map((d) => d.id)).size).toBe(3);
  });

  it('searches names case-insensitively', async () => {
    expect(names((await get('/event_definitions/?search=PAGE')).body)).toEqual(['$pageview']);
    expect(names((await get('/event_definitions/?search=u')).body)).toEqual(['signup', 'Purchase']);
  });

  it('pages with absolute next and previous links', async () => {
    const res = await get('/event_definitions/?limit=1&offset=1');
    expect(res.body.count).toBe(3);
    expect(names(res.body)).toEqual(['signup']);
    expect(res.body.next).toBe(`http://localhost${base()}/event_definitions/?limit=1&offset=2`);
    expect(res.body.previous).toBe(`http://localhost${base()}/event_definitions/?limit=1`);
  });

  it('shows an event ingested after the last answer (the cache follows the store)', async () => {
    const before = await get('/event_definitions/');
    expect(names(before.body)).not.toContain('Brand new');
    await ingest([ev('Brand new', 'u9', daysAgo(0.5))]);
    const after = await get('/event_definitions/');
    expect(names(after.body)).toContain('Brand new');
    expect(after.body.results.find((d: AnyJson) => d.name === 'Brand new').volume_30_day).toBe(1);
  });
});

describe('property_definitions/', () => {
  const defs = async (query: string) => {
    const res = await get(`/property_definitions/${query}`);
    expect(res.status).toBe(200);
    return pageSchema(propertyDefinitionSchema).parse(res.body).results;
  };

  it('lists event property keys with their type, by volume then name', async () => {
    const results = await defs('');
    const byName = Object.fromEntries(results.map((d) => [d.name, d]));
    expect(byName.amount).toMatchObject({
      type: 'event',
      property_type: 'Numeric',
      is_numerical: true,
      volume_30_day: 2,
    });
    expect(byName.is_trial).toMatchObject({ property_type: 'Boolean', is_numerical: false });
    expect(byName.signed_at).toMatchObject({ property_type: 'DateTime' });
    expect(byName.$browser).toMatchObject({ property_type: 'String', volume_30_day: 4 });
    expect(byName[WEIRD]).toMatchObject({ property_type: 'String', volume_30_day: 2 });
    const volumes = results.map((d) => d.volume_30_day ?? 0);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    expect(results.slice(0, 3).map((d) => d.name)).toEqual(['$browser', '$current_url', 'plan']);
  });

  it('searches, filters numerical ones and pages', async () => {
    expect((await defs('?search=TRIAL')).map((d) => d.name)).toEqual(['is_trial']);
    // Every word of the search, in any order and case, as a person types a property's label.
    expect((await defs(`?search=${encodeURIComponent('current URL')}`)).map((d) => d.name)).toEqual(['$current_url']);
    expect((await defs(`?search=${encodeURIComponent('trial is')}`)).map((d) => d.name)).toEqual(['is_trial']);
    expect(await defs(`?search=${encodeURIComponent('current plan')}`)).toEqual([]);
    expect((await defs('?is_numerical=true')).map((d) => d.name)).toEqual(['amount']);
    const page = await get('/property_definitions/?limit=2');
    expect(page.body.results).toHaveLength(2);
    expect(page.body.next).toBe(`http://localhost${base()}/property_definitions/?limit=2&offset=2`);
  });

  it('narrows to keys seen on the given events (a JSON list or names separated by commas)', async () => {
    const json = (await defs(`?event_names=${encodeURIComponent('["Purchase"]')}`)).map((d) => d.name);
    expect(json).toEqual(['amount']);
    const comma = (await defs(`?event_names=${encodeURIComponent('Purchase,signup')}`)).map((d) => d.name);
    expect(comma).toContain('is_trial');
    expect(comma).not.toContain('$browser');
    const bad = await get(`/property_definitions/?event_names=${encodeURIComponent('[1, 2')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.attr).toBe('event_names');
  });

  it('counts events written around the ingestion path (read from their JSON) and keeps its answer when compacted', async () => {
    await server.events.run(
      `INSERT INTO events (uuid, team_id, event, distinct_id, timestamp, properties)
      VALUES (uuid(), $1, 'raw', 'r1', $2::TIMESTAMPTZ, '{"raw_only": "2025-05-01 10:00:00"}')`,
      [projectId, daysAgo(1)],
    );
    const before = await defs('');
    expect(before.find((d) => d.name === 'raw_only')).toMatchObject({ property_type: 'DateTime', volume_30_day: 1 });
    // As append does every 200 appends: inside the write's transaction.
    await server.events.write((c) => inTransaction(c, () => compactEventProperties(c, projectId)));
    expect(await defs('')).toEqual(before);
    const [stats] = await server.events.all<{ rows: number; groups: number }>(
      `SELECT count(*)::INTEGER AS rows, count(DISTINCT (event, key, kind, day))::INTEGER AS groups
       FROM event_property_stats WHERE team_id = $1`,
      [projectId],
    );
    expect(stats!.rows).toBe(stats!.groups);
  });

  it('lists keys of events ingested a moment ago, counted or not yet counted, each once', async () => {
    // Appends count their events into the statistics at most once a second: the second (and
    // third) batch here is read from its JSON until then, and the listing is the same either way.
    await ingest([ev('fresh', 'f1', daysAgo(1), { fresh_a: 1 })]);
    await ingest([ev('fresh', 'f2', daysAgo(1), { fresh_a: 2, fresh_b: 'x' })]);
    await ingest([ev('fresh', 'f3', daysAgo(1), { fresh_b: 'y' })]);
    const fresh = (await defs(`?event_names=${encodeURIComponent('["fresh"]')}`)).map((d) => [d.name, d.volume_30_day]);
    expect(fresh).toEqual([
      ['fresh_a', 2],
      ['fresh_b', 2],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await ingest([ev('fresh', 'f4', daysAgo(1), { fresh_b: 'z' })]); // counts everything not counted yet
    const [uncounted] = await server.events.all<{ n: number }>(
      'SELECT count(*)::INTEGER AS n FROM events WHERE team_id = $1 AND ps_counted IS NOT TRUE',
      [projectId],
    );
    expect(uncounted!.n).toBe(0);
    expect(
      (await defs(`?event_names=${encodeURIComponent('["fresh"]')}`)).map((d) => [d.name, d.volume_30_day]),
    ).toEqual([
      ['fresh_b', 3],
      ['fresh_a', 2],
    ]);
  });

  it('lists person properties with type=person', async () => {
    const results = await defs('?type=person');
    const byName = Object.fromEntries(results.map((d) => [d.name, d]));
    expect(byName.age).toMatchObject({ type: 'person', property_type: 'Numeric', is_numerical: true });
    expect(byName.company).toMatchObject({ property_type: 'String' });
    expect(byName.$browser).toBeUndefined();
  });
});

describe('events/values/', () => {
  const values = async (query: string) => {
    const res = await get(`/events/values/?${query}`);
    expect(res.status).toBe(200);
    return z.array(propertyValueSchema).parse(res.body);
  };

  it('gives the values most frequent first, with counts', async () => {
    expect(await values('key=%24browser')).toEqual([
      { name: 'Chrome', count: 2 },
      { name: 'Firefox', count: 1 },
      { name: 'Safari', count: 1 },
    ]);
    expect((await values('key=plan&value=FRE')).map((v) => v.name)).toEqual(['Free']);
    expect((await values('key=amount&event_name=Purchase')).map((v) => v.name)).toEqual(['n/a']);
    expect((await values('key=age&type=person')).map((v) => v.name).sort()).toEqual(['31', '40']);
  });

  it('takes a key with quotes, dots, slashes and unicode', async () => {
    expect(await values(`key=${encodeURIComponent(WEIRD)}`)).toEqual([{ name: 'odd value', count: 2 }]);
  });

  it('returns at most 50 values', async () => {
    await ingest(
      Array.from({ length: 60 }, (_, i) => ev('many', `m${i}`, daysAgo(1), { n: `v${String(i).padStart(2, '0')}` })),
    );
    await ingest([ev('many', 'm0', daysAgo(1), { n: 'v59' })]);
    const result = await values('key=n');
    expect(result).toHaveLength(50);
    expect(result[0]).toEqual({ name: 'v59', count: 2 });
  });
});

describe('access', () => {
  it('needs insight:read', async () => {
    const key = server.makeKey({ scopes: ['batch_export:read'] });
    for (const path of ['/event_definitions/', '/property_definitions/', '/events/values/?key=x']) {
      const res = await get(path, key);
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe("API key missing required scope 'insight:read'");
    }
    expect((await get('/event_definitions/', server.makeKey({ scopes: ['insight:read'] }))).status).toBe(200);
  });

  it('403 for a project the key cannot reach, 404 for an unknown one', async () => {
    const scoped = server.makeKey({ scopes: ['*'], organizations: [server.orgIds[HEDGEBOX]!] });
    const other = await server.get(`/api/projects/${otherProjectId}/event_definitions/`, { key: scoped });
    expect(other.status).toBe(403);
    expect((await server.get('/api/projects/999999/property_definitions/')).status).toBe(404);
    expect((await server.get('/api/projects/999999/events/values/?key=x')).status).toBe(404);
  });

  it('rejects a missing key parameter with 400', async () => {
    const res = await get('/events/values/');
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe('key');
  });
});
