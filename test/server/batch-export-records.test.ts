import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore } from '../../server/analytics/store/event-store.ts';
import { isoOfMicros, READ_PAGE_ROWS, recordSource, type ExportRecord } from '../../server/batch-exports/records.ts';

const events = createEventStore(':memory:');
const TEAM = 7;
const START = '2024-01-01T00:00:00Z';
const END = '2024-01-02T00:00:00Z';
// More rows than one read page, in groups of seven sharing a timestamp (to the microsecond):
// pages end inside a group, where only the id keeps the order.
const ROWS = READ_PAGE_ROWS * 2 + 1234;

beforeAll(async () => {
  await events.ready();
  await events.run(
    `INSERT INTO events (uuid, team_id, event, distinct_id, timestamp, properties)
    SELECT uuid(), $1, ['a', 'b', 'c'][i % 3 + 1], 'user-' || i, $2::TIMESTAMPTZ + to_microseconds((i // 7) * 1357 + 1), json_object('i', i)
    FROM range($3) t(i)`,
    [TEAM, START, ROWS],
  );
  // Outside the interval or another project's: never exported.
  await events.run(
    `INSERT INTO events (uuid, team_id, event, distinct_id, timestamp, properties) VALUES
    (uuid(), $1, 'a', 'x', $2::TIMESTAMPTZ, '{}'), (uuid(), $1, 'a', 'x', $2::TIMESTAMPTZ - INTERVAL 1 MICROSECOND, '{}'),
    (uuid(), $1 + 1, 'a', 'x', '2024-01-01T05:00:00Z', '{}')`,
    [TEAM, END],
  );
  // 25 persons written as a bulk writer does (no update time: their creation counts), each with
  // distinct ids n-<i>, every fifth with a second; five more were created the day before and
  // changed in the interval, and one created in it changed after it.
  await events.run(
    `INSERT INTO persons (id, team_id, properties, is_identified, created_at)
    SELECT uuid(), $1, json_object('n', i), i % 2 = 0, $2::TIMESTAMPTZ + to_microseconds((i // 3) * 1000) FROM range(25) t(i)`,
    [TEAM, START],
  );
  await events.run(
    `INSERT INTO persons (id, team_id, properties, is_identified, created_at, updated_at, version)
    SELECT uuid(), $1, json_object('n', i), false, $2::TIMESTAMPTZ - INTERVAL 1 DAY, $2::TIMESTAMPTZ + INTERVAL (i - 20) HOUR, 3 FROM range(25, 30) t(i)`,
    [TEAM, START],
  );
  await events.run(
    `INSERT INTO persons (id, team_id, properties, is_identified, created_at, updated_at, version)
    VALUES (uuid(), $1, '{"n": 30}', false, $2::TIMESTAMPTZ, $3::TIMESTAMPTZ, 1)`,
    [TEAM, START, END],
  );
  await events.run(
    `INSERT INTO person_distinct_ids (team_id, distinct_id, person_id)
    SELECT team_id, 'n-' || json_extract_string(properties, '$.n'), id FROM persons WHERE team_id = $1
    UNION ALL SELECT team_id, 'second-' || json_extract_string(properties, '$.n'), id FROM persons WHERE team_id = $1 AND (properties->>'n')::INTEGER % 5 = 0`,
    [TEAM],
  );
});
afterAll(() => events.close());

async function readAll(source: ReturnType<typeof recordSource>, size: number) {
  const batches: ExportRecord[][] = [];
  for await (const batch of source.batches(size)) batches.push(batch);
  return batches;
}

/** The rows of the interval as the store orders them: (timestamp, uuid). */
const expectedOrder = async (extra = '') =>
  (
    await events.all<{ uuid: string }>(
      `SELECT uuid::VARCHAR AS uuid FROM events WHERE team_id = $1
    AND timestamp >= $2::TIMESTAMPTZ AND timestamp < $3::TIMESTAMPTZ ${extra} ORDER BY timestamp, uuid`,
      [TEAM, START, END],
    )
  ).map((r) => r.uuid);

describe('recordSource', () => {
  it('gives every event of the interval once, in (timestamp, uuid) order, across pages and batches', async () => {
    const source = recordSource(events, 'events', TEAM, START, END);
    expect(await source.count()).toBe(ROWS + 1);
    const batches = await readAll(source, 1000);
    expect(batches.slice(0, -1).every((b) => b.length === 1000)).toBe(true);
    const uuids = batches.flat().map((r) => r.uuid as string);
    expect(uuids).toHaveLength(ROWS + 1);
    expect(new Set(uuids).size).toBe(ROWS + 1);
    expect(uuids).toEqual(await expectedOrder());
    // The same rows in the same order on a second read (a retry).
    expect((await readAll(source, 777)).flat().map((r) => r.uuid)).toEqual(uuids);
    const first = batches[0]![0]!;
    const i = (first.properties as { i: number }).i;
    expect(i).toBeLessThan(7);
    expect(first).toEqual({
      uuid: uuids[0],
      event: ['a', 'b', 'c'][i % 3],
      distinct_id: `user-${i}`,
      timestamp: '2024-01-01T00:00:00.000Z',
      team_id: TEAM,
      properties: { i },
    });
  });

  it('include_events and exclude_events filter both the count and the records', async () => {
    const source = recordSource(events, 'events', TEAM, START, END, {
      include_events: ['a', 'b'],
      exclude_events: ['b'],
    });
    const records = (await readAll(source, 5000)).flat();
    expect(await source.count()).toBe(records.length);
    expect(new Set(records.map((r) => r.event))).toEqual(new Set(['a']));
    expect(records.map((r) => r.uuid)).toEqual(await expectedOrder("AND event = 'a'"));

    const excluded = recordSource(events, 'events', TEAM, START, END, {
      exclude_events: ['a', "c'); DROP TABLE events; --"],
      include_events: null,
    });
    const rest = (await readAll(excluded, 5000)).flat();
    expect(new Set(rest.map((r) => r.event))).toEqual(new Set(['b', 'c']));
    expect(await excluded.count()).toBe(rest.length);
    expect(await recordSource(events, 'events', TEAM, START, END, { include_events: [] }).count()).toBe(ROWS + 1);
  });

  it('persons: those changed in the interval, one record per distinct id, ordered by (update time, id, distinct id), batches of any size', async () => {
    const source = recordSource(events, 'persons', TEAM, START, END, { include_events: ['ignored for persons'] });
    // 30 persons (25 created, 5 changed in the interval; not the one changed at its end), 36 distinct ids.
    expect(await source.count()).toBe(36);
    const batches = await readAll(source, 4);
    expect(batches.map((b) => b.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4]);
    const records = batches.flat();
    const expected = await events.all<{ d: string; p: string }>(
      `SELECT d.distinct_id AS d, p.id::VARCHAR AS p FROM persons p
      JOIN person_distinct_ids d ON d.team_id = p.team_id AND d.person_id = p.id
      WHERE p.team_id = $1 AND coalesce(p.updated_at, p.created_at) < $2::TIMESTAMPTZ ORDER BY coalesce(p.updated_at, p.created_at), p.id, d.distinct_id`,
      [TEAM, END],
    );
    expect(records.map((r) => [r.distinct_id, r.person_id])).toEqual(expected.map((e) => [e.d, e.p]));
    const changed = records.find((r) => r.distinct_id === 'n-26')!;
    expect(changed).toEqual({
      team_id: TEAM,
      distinct_id: 'n-26',
      person_id: changed.person_id,
      properties: { n: 26 },
      person_version: 3,
      person_distinct_id_version: 0,
      created_at: '2023-12-31T00:00:00.000Z',
      _inserted_at: '2024-01-01T06:00:00.000Z',
    });
  });

  it('isoOfMicros keeps all six digits', () => {
    expect(isoOfMicros(Date.parse('2024-01-01T00:00:00.123Z') * 1000 + 456)).toBe('2024-01-01T00:00:00.123456Z');
    expect(isoOfMicros(Date.parse('2024-01-01T00:00:00Z') * 1000 + 7)).toBe('2024-01-01T00:00:00.000007Z');
  });
});
