import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAnalyticsQuery, trendParamsSchema, trendResultSchema } from '../../src/contract/analytics.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { createTestServer, HEDGEBOX, NORTHWIND, type TestServer } from '../server/helpers.ts';
import { loadEvents } from './harness.ts';
import { referenceTrends } from './reference/trends.ts';

/** trend/ through app.request(): validation, scopes, reachability, GET = POST, the cache. */

const NOW = new Date('2024-03-20T12:00:00Z');
let server: TestServer;
let projectId: number;
let otherProjectId: number;
const base = () => `/api/projects/${projectId}/insights/trend/`;

const events: ReferenceEvent[] = [
  ['2024-03-15T10:00:00Z', '$pageview', { $browser: 'Chrome' }, 'u1'],
  ['2024-03-15T11:00:00Z', '$pageview', { $browser: 'Firefox' }, 'u2'],
  ['2024-03-16T10:00:00Z', 'sign up', { 'we"ird key': "O'Brien" }, 'u1'],
  ['2024-03-18T10:00:00Z', '$pageview', {}, 'u3'],
].map(([ts, event, properties, person], i) => ({
  uuid: `00000000-0000-4000-8000-00000000000${i}`,
  event: event as string,
  distinct_id: person as string,
  person_id: person as string,
  timestamp: Date.parse(ts as string),
  properties: properties as Record<string, unknown>,
  person_properties: {},
}));

const trendBody = {
  events: [{ id: '$pageview' }, { id: 'sign up', math: 'dau' }],
  date_from: '2024-03-14',
  date_to: '2024-03-19',
};

beforeAll(async () => {
  server = createTestServer({ now: () => NOW });
  const projects = server.store.db
    .prepare('SELECT p.id, o.name FROM projects p JOIN organizations o ON o.id = p.organization_id ORDER BY p.id')
    .all() as { id: number; name: string }[];
  projectId = projects.find((p) => p.name === HEDGEBOX)!.id;
  otherProjectId = projects.find((p) => p.name === NORTHWIND)!.id;
  server.store.db.prepare("UPDATE projects SET timezone = 'UTC' WHERE id = ?").run(projectId);
  await loadEvents(server.events, projectId, events);
});
afterAll(async () => {
  await server.close();
});

describe('POST trend/', () => {
  it('computes the trend, equal to the reference, with is_cached, last_refresh and timezone', async () => {
    const res = await server.request('POST', base(), { json: { ...trendBody, breakdown: '$browser' } });
    expect(res.status).toBe(200);
    const body = trendResultSchema.parse(res.body);
    expect(body.timezone).toBe('UTC');
    expect(typeof body.last_refresh).toBe('string');
    const expected = referenceTrends(trendParamsSchema.parse({ ...trendBody, breakdown: '$browser' }), {
      events,
      now: NOW,
      project: { id: projectId, timezone: 'UTC', week_start_day: 0, test_account_filters: [] },
    });
    expect(body.result.map((s) => [s.label, s.breakdown_value, s.data])).toEqual(
      expected.map((s) => [s.label, s.breakdown_value, s.data]),
    );
    expect(body.result.map((s) => s.label)).toEqual(['Chrome', 'Firefox', 'None', 'None']);
    expect(body.result[0]!.data).toEqual([0, 1, 0, 0, 0, 0]);
  });

  it('a second identical request is served from the cache', async () => {
    const body = { ...trendBody, interval: 'week' };
    const first = await server.request('POST', base(), { json: body });
    const second = await server.request('POST', base(), { json: { interval: 'week', ...trendBody } });
    expect(first.body.is_cached).toBe(false);
    expect(second.body.is_cached).toBe(true);
    expect(second.body.last_refresh).toBe(first.body.last_refresh);
    expect(second.body.result).toEqual(first.body.result);
  });

  it('a write to the event store makes the cached result stale', async () => {
    const body = { ...trendBody, display: 'BoldNumber' };
    const first = await server.request('POST', base(), { json: body });
    await server.events.append(projectId, [
      {
        uuid: '00000000-0000-4000-8000-0000000000ff',
        event: '$pageview',
        distinct_id: 'u9',
        timestamp: new Date('2024-03-17T10:00:00Z'),
        properties: {},
      } as never,
    ]);
    const second = await server.request('POST', base(), { json: body });
    expect(second.body.is_cached).toBe(false);
    expect(second.body.result[0].aggregated_value).toBe(first.body.result[0].aggregated_value + 1);
  });
});

describe('GET trend/', () => {
  it('takes the same parameters in the query string and gives the same result', async () => {
    const params = { ...trendBody, breakdown: '$browser', compare: true, formula: 'A + B', interval: 'day' };
    const post = await server.request('POST', base(), { json: params });
    const query = new URLSearchParams(encodeAnalyticsQuery(params)).toString();
    const get = await server.get(`${base()}?${query}`);
    expect(get.status).toBe(200);
    expect(get.body.result).toEqual(post.body.result);
  });

  it('a bad parameter in the query string is a 400 naming it', async () => {
    const res = await server.get(`${base()}?events=${encodeURIComponent('[{"id":"$pageview","math":"nope"}]')}`);
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe('events__0__math');
  });
});

describe('errors', () => {
  it.each([
    [{ date_from: '2024-03-14' }, 'events'],
    [{ ...trendBody, date_from: 'yesterday' }, 'date_from'],
    [{ ...trendBody, date_from: '2024-03-20', date_to: '2024-03-01' }, 'date_from'],
    [{ ...trendBody, formula: 'A + C' }, 'formula'],
    [{ ...trendBody, formula: 'A +' }, 'formula'],
    [{ actions: [{ id: 12 }] }, 'actions'],
    [{ ...trendBody, interval: 'minute' }, 'interval'],
    [{ ...trendBody, date_from: '2020-01-01', interval: 'hour' }, 'interval'],
    [{ ...trendBody, breakdown: 'x', breakdown_type: 'group' }, 'breakdown_group_type_index'],
    [{ ...trendBody, aggregation_group_type_index: 0 }, 'aggregation_group_type_index'],
    [{ ...trendBody, breakdown: 'x', breakdown_type: 'cohort' }, 'breakdown'],
    [{ ...trendBody, properties: [{ key: 'id', type: 'cohort', value: 999_999 }] }, 'properties__values__0__value'],
    [{ ...trendBody, compare: true, compare_to: 'last week' }, 'compare_to'],
    [{ ...trendBody, properties: [{ key: 'a', operator: 'regex', value: '(?<=a)b' }] }, 'properties__values__0__value'],
  ])('%j → 400 on %s', async (body, attr) => {
    const res = await server.request('POST', base(), { json: body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });

  it('needs the insight:read scope', async () => {
    const key = server.makeKey({ scopes: ['organization:read'] });
    const res = await server.request('POST', base(), { json: trendBody, key });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("API key missing required scope 'insight:read'");
    const ok = await server.request('POST', base(), {
      json: trendBody,
      key: server.makeKey({ scopes: ['insight:read'] }),
    });
    expect(ok.status).toBe(200);
  });

  it('a project the key cannot reach is a 403; an unknown one a 404', async () => {
    const key = server.makeKey({ scopes: ['insight:read'], organizations: [server.orgIds[NORTHWIND]!] });
    expect((await server.request('POST', base(), { json: trendBody, key })).status).toBe(403);
    expect(
      (await server.request('POST', `/api/projects/${otherProjectId}/insights/trend/`, { json: trendBody, key }))
        .status,
    ).toBe(200);
    expect((await server.request('POST', '/api/projects/999999/insights/trend/', { json: trendBody })).status).toBe(
      404,
    );
    expect(
      (await server.request('POST', "/api/projects/1'%20OR%201=1/insights/trend/", { json: trendBody })).status,
    ).toBe(404);
  });

  it('needs a key', async () => {
    expect((await server.request('POST', base(), { json: trendBody, key: null })).status).toBe(401);
  });
});

describe('materialized columns', () => {
  // The endpoints keep whether every event has its materialized columns filled (a scan of the
  // table) until the next write: a row written after that by other means (mp_filled false, as a
  // bulk writer or an older file leaves it) must make the next analysis (and value list) read the JSON again.
  const byBrowser = {
    events: [{ id: '$pageview' }],
    date_from: '2024-03-14',
    date_to: '2024-03-19',
    breakdown: '$browser',
  };
  const labels = async () => {
    const res = await server.request('POST', base(), { json: byBrowser });
    expect(res.status).toBe(200);
    return (res.body as { result: { label: string; count: number }[] }).result
      .map((s) => `${s.label} ${s.count}`)
      .sort();
  };
  // The builders' value picker reads the same way (events/values/).
  const values = async () => {
    const res = await server.request('GET', `/api/projects/${projectId}/events/values/?key=%24browser`);
    expect(res.status).toBe(200);
    return (res.body as { name: string }[]).map((v) => v.name).sort();
  };

  it('are read while every row has them, and the JSON again once a row without them is written', async () => {
    const fromJson = await labels();
    expect(fromJson).toContain('Chrome 1');
    await server.events.run(
      `UPDATE events SET mp_browser = json_extract_string(properties, '/$browser'), mp_filled = true`,
    );
    // Filled columns that disagree with the JSON show which one an analysis read.
    await server.events.run(`UPDATE events SET mp_browser = 'Column ' || mp_browser WHERE mp_browser IS NOT NULL`);
    expect(await labels()).toEqual(fromJson.map((l) => (l.startsWith('None') ? l : `Column ${l}`)).sort());
    expect(await values()).toContain('Column Chrome');
    // A copy of a stored event, written without its columns (mp_filled false).
    await server.events.run(
      `INSERT INTO events (uuid, team_id, event, distinct_id, person_id, person_key, timestamp, properties)
      SELECT '00000000-0000-4000-8000-0000000000aa'::UUID, team_id, event, distinct_id, person_id, person_key, timestamp, '{"$browser": "Safari"}'
      FROM events WHERE team_id = $1 AND event = '$pageview' AND json_extract_string(properties, '/$browser') = 'Chrome'`,
      [projectId],
    );
    expect(await labels()).toEqual([...fromJson, 'Safari 1'].sort());
    const afterWrite = await values();
    expect(afterWrite).toEqual(expect.arrayContaining(['Chrome', 'Safari']));
    expect(afterWrite).not.toContain('Column Chrome');
  });
});
