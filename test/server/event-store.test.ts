import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventStore, openEventStore } from '../../server/analytics/store/event-store.ts';
import {
  funnelParamsSchema,
  trendParamsSchema,
  type FunnelStep,
  type TrendSeries,
} from '../../src/contract/analytics.ts';
import { computeFunnel } from '../../server/analytics/engines/funnels.ts';
import { EVENT_STORE_DDL } from '../../server/analytics/store/schema.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import { parseCapturePayload } from '../../server/analytics/store/ingest-parse.ts';

const store = createEventStore(':memory:');
afterAll(() => store.close());
const NOW = new Date('2025-01-01T00:00:00Z');
const append = (batch: object[]) => store.append(7, parseCapturePayload({ api_key: 't', batch }, NOW).events);
const personOf = async (distinctId: string) =>
  (
    await store.all<{ person_id: string }>(
      'SELECT person_id FROM person_distinct_ids WHERE team_id = 7 AND distinct_id = $1',
      [distinctId],
    )
  )[0]?.person_id;

describe('the event store', () => {
  it('merges chains inside one batch: a → b, then b → c, leaving one person with the merged properties', async () => {
    await append([
      { event: 'x', distinct_id: 'a', $set: { from: 'a', shared: 'a' } },
      { event: 'x', distinct_id: 'b', $set: { shared: 'b' } },
      { event: '$identify', distinct_id: 'b', properties: { $anon_distinct_id: 'a' } },
      { event: '$create_alias', distinct_id: 'c', properties: { alias: 'b' } },
    ]);
    const [pa, pb, pc] = [await personOf('a'), await personOf('b'), await personOf('c')];
    expect(pa).toBeDefined();
    expect(new Set([pa, pb, pc]).size).toBe(1);
    const persons = await store.all<{ properties: string; is_identified: boolean }>(
      'SELECT properties, is_identified FROM persons WHERE team_id = 7',
    );
    expect(persons).toHaveLength(1);
    expect(JSON.parse(persons[0]!.properties)).toEqual({ from: 'a', shared: 'b' });
    expect(persons[0]!.is_identified).toBe(true);
  });

  it('merges persons stored by earlier batches, moving every distinct id', async () => {
    await append([
      { event: 'x', distinct_id: 'd' },
      { event: 'x', distinct_id: 'e' },
    ]);
    await append([
      { event: 'x', distinct_id: 'e2' },
      { event: '$create_alias', distinct_id: 'e', properties: { alias: 'e2' } },
    ]);
    expect(await personOf('e2')).toBe(await personOf('e'));
    await append([{ event: '$identify', distinct_id: 'd', properties: { $anon_distinct_id: 'e' } }]);
    const ids = await Promise.all(['d', 'e', 'e2'].map(personOf));
    expect(new Set(ids).size).toBe(1);
    const [{ n }] = (await store.all<{ n: number }>(
      'SELECT count(*)::INTEGER AS n FROM persons WHERE team_id = 7',
    )) as [{ n: number }];
    expect(n).toBe(2); // {a, b, c} and {d, e, e2}
  });

  it('keeps when a person last changed and how often: $set, a new distinct id and a merge count, a plain event does not', async () => {
    const at = (t: string, e: object) => ({ timestamp: `2024-12-01T${t}Z`, ...e });
    const state = async (distinctId: string) =>
      (
        await store.all<{ created: string; updated: string; version: number; pdi: number }>(
          `SELECT p.created_at::VARCHAR AS created, p.updated_at::VARCHAR AS updated, p.version::INTEGER AS version, d.version::INTEGER AS pdi
        FROM person_distinct_ids d JOIN persons p ON p.team_id = d.team_id AND p.id = d.person_id WHERE d.team_id = 7 AND d.distinct_id = $1`,
          [distinctId],
        )
      )[0];
    await append([
      at('10:00:00', { event: 'x', distinct_id: 'v1' }),
      at('10:05:00', { event: 'x', distinct_id: 'v2' }),
    ]);
    expect(await state('v1')).toEqual({
      created: '2024-12-01 10:00:00+00',
      updated: '2024-12-01 10:00:00+00',
      version: 0,
      pdi: 0,
    });
    await append([at('11:00:00', { event: 'x', distinct_id: 'v1' })]);
    expect((await state('v1'))!.version).toBe(0);
    await append([at('12:00:00', { event: 'x', distinct_id: 'v1', $set: { plan: 'pro' } })]);
    expect(await state('v1')).toMatchObject({ updated: '2024-12-01 12:00:00+00', version: 1 });
    // An event older than the last change changes the person, not its update time.
    await append([at('09:00:00', { event: 'x', distinct_id: 'v1', $set: { seat: 2 } })]);
    expect(await state('v1')).toMatchObject({
      created: '2024-12-01 09:00:00+00',
      updated: '2024-12-01 12:00:00+00',
      version: 2,
    });
    await append([at('13:00:00', { event: '$identify', distinct_id: 'v1', properties: { $anon_distinct_id: 'v2' } })]);
    expect(await state('v1')).toMatchObject({ updated: '2024-12-01 13:00:00+00', version: 3, pdi: 0 });
    // v2's person was merged into v1's: v2 moved, its row has a new version.
    expect(await state('v2')).toMatchObject({ updated: '2024-12-01 13:00:00+00', version: 3, pdi: 1 });
  });

  it('attributes events stored before a merge to the surviving person in every analysis, through chains of merges', async () => {
    const ctx = {
      db: store,
      project: { id: 8, timezone: 'UTC', week_start_day: 0 as const, test_account_filters: [] },
      now: new Date('2025-01-02T00:00:00Z'),
    };
    const add = (batch: object[]) =>
      store.append(
        8,
        parseCapturePayload(
          { api_key: 't', batch: batch.map((e) => ({ timestamp: '2025-01-01T10:00:00Z', ...e })) },
          NOW,
        ).events,
      );
    const dau = async () =>
      (
        (await computeTrends(
          trendParamsSchema.parse({
            events: [{ id: null, math: 'dau' }],
            date_from: '2025-01-01',
            date_to: '2025-01-01',
          }),
          ctx,
        )) as TrendSeries[]
      )[0]!.count;
    const converted = async () =>
      (
        (await computeFunnel(
          funnelParamsSchema.parse({
            events: [
              { id: 'A', order: 0 },
              { id: 'B', order: 1 },
              { id: 'C', order: 2 },
            ],
            date_from: '2025-01-01',
            date_to: '2025-01-01',
          }),
          ctx,
        )) as FunnelStep[]
      ).map((s) => s.count);
    await add([
      { event: 'A', distinct_id: 'anon', timestamp: '2025-01-01T10:00:00Z' },
      { event: 'B', distinct_id: 'user', timestamp: '2025-01-01T10:01:00Z' },
      { event: 'C', distinct_id: 'phone', timestamp: '2025-01-01T10:02:00Z' },
    ]);
    expect(await dau()).toBe(3);
    expect(await converted()).toEqual([1, 0, 0]);
    await add([
      {
        event: '$identify',
        distinct_id: 'user',
        properties: { $anon_distinct_id: 'anon' },
        timestamp: '2025-01-01T10:03:00Z',
      },
    ]);
    expect(await dau()).toBe(2);
    expect(await converted()).toEqual([1, 1, 0]);
    await add([
      {
        event: '$create_alias',
        distinct_id: 'phone',
        properties: { alias: 'user' },
        timestamp: '2025-01-01T10:04:00Z',
      },
    ]);
    expect(await dau()).toBe(1);
    expect(await converted()).toEqual([1, 1, 1]);
    const [{ n }] = (await store.all<{ n: number }>(
      'SELECT count(DISTINCT person_id)::INTEGER AS n FROM person_overrides WHERE team_id = 8',
    )) as [{ n: number }];
    expect(n).toBe(1); // every override points at the one surviving person
  });

  it('gives every person of every project one integer key, the one each of its events and overrides stores', async () => {
    // Same distinct ids in two projects, several appends, and a merge: keys never collide.
    for (const team of [21, 22]) {
      const add = (batch: object[]) => store.append(team, parseCapturePayload({ api_key: 't', batch }, NOW).events);
      await add([
        { event: 'x', distinct_id: 'k1' },
        { event: 'x', distinct_id: 'k2' },
      ]);
      await add([
        { event: 'x', distinct_id: 'k3' },
        { event: 'x', distinct_id: 'k1' },
      ]);
      await add([{ event: '$identify', distinct_id: 'k1', properties: { $anon_distinct_id: 'k2' } }]);
    }
    const [keys] = await store.all<{
      n: number;
      keys: number;
      ids: number;
    }>(`SELECT count(*)::INTEGER AS n, count(DISTINCT key)::INTEGER AS keys,
      count(DISTINCT (team_id, person_id))::INTEGER AS ids FROM person_keys WHERE team_id IN (21, 22)`);
    expect(keys).toEqual({ n: 6, keys: 6, ids: 6 }); // k1, k2 (merged away) and k3, per project
    const [wrong] = await store.all<{
      n: number;
    }>(`SELECT count(*)::INTEGER AS n FROM events e LEFT JOIN person_keys k ON k.team_id = e.team_id AND k.person_id = e.person_id
      WHERE e.team_id IN (21, 22) AND (e.person_key IS NULL OR k.key IS DISTINCT FROM e.person_key)`);
    expect(wrong!.n).toBe(0);
    const overrides = await store.all<{
      ok: boolean;
    }>(`SELECT ko.key = o.old_person_key AND kn.key = o.person_key AS ok FROM person_overrides o
      JOIN person_keys ko ON ko.team_id = o.team_id AND ko.person_id = o.old_person_id JOIN person_keys kn ON kn.team_id = o.team_id AND kn.person_id = o.person_id
      WHERE o.team_id IN (21, 22)`);
    expect(overrides).toEqual([{ ok: true }, { ok: true }]);
  });

  it('runs concurrent reads on separate connections while writes queue up', async () => {
    const writes = Array.from({ length: 5 }, (_, i) => append([{ event: 'w', distinct_id: `w${i}` }]));
    const reads = Array.from({ length: 12 }, () =>
      store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM range(200000) t(i), range(3)'),
    );
    const results = await Promise.all(reads);
    await Promise.all(writes);
    expect(results.every((r) => r[0]!.n === 600000)).toBe(true);
    const [{ n }] = (await store.all<{ n: number }>("SELECT count(*)::INTEGER AS n FROM events WHERE event = 'w'")) as [
      { n: number },
    ];
    expect(n).toBe(5);
  });

  it('keeps its meta values and refuses use after close', async () => {
    await store.setMeta('k', 'v');
    expect(await store.getMeta('k')).toBe('v');
    expect(await store.getMeta('missing')).toBeNull();
    const other = createEventStore(':memory:');
    await other.ready();
    await other.close();
    await other.close();
    await expect(other.all('SELECT 1')).rejects.toThrow(/closed/);
  });

  it('opens a file of an older version (ids as text), converts the ids to UUIDs and keeps every row and merge working', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'event-store-v2-'));
    const file = path.join(dir, 'events.duckdb');
    try {
      const old = await DuckDBInstance.create(file);
      const c = await old.connect();
      // Version 2: ids as text, no persons on events, no overrides or person keys.
      for (const ddl of EVENT_STORE_DDL.filter((d) => !d.includes('person_overrides') && !d.includes('person_keys'))) {
        // …and no person update times or versions (version 7).
        await c.run(
          ddl
            .replace(/\s*person_id UUID,/, '')
            .replace(/,\s*person_key INTEGER/, '')
            .replace(/,\s*updated_at TIMESTAMPTZ/, '')
            .replace(/,\s*version BIGINT DEFAULT 0/, '')
            .replace(/\bUUID\b/g, 'VARCHAR'),
        );
      }
      await c.run(`INSERT INTO events (uuid, team_id, event, distinct_id, timestamp) VALUES
        ('00000000-0000-4000-8000-000000000001', 7, 'x', 'old', '2024-06-01T00:00:00Z')`);
      await c.run(
        "INSERT INTO persons (id, team_id, created_at) VALUES ('11111111-1111-4111-8111-111111111111', 7, '2024-06-01T00:00:00Z')",
      );
      await c.run(
        "INSERT INTO person_distinct_ids (team_id, distinct_id, person_id) VALUES (7, 'old', '11111111-1111-4111-8111-111111111111')",
      );
      c.closeSync();
      old.closeSync();

      const opened = await openEventStore(file);
      try {
        const types = await opened.all<{
          t: string;
          c: string;
          type: string;
        }>(`SELECT table_name AS t, column_name AS c, data_type AS type FROM duckdb_columns()
          WHERE (table_name, column_name) IN (('events', 'uuid'), ('persons', 'id'), ('person_distinct_ids', 'person_id')) ORDER BY 1`);
        expect(types.map((r) => r.type)).toEqual(['UUID', 'UUID', 'UUID']);
        expect(await opened.all('SELECT updated_at::VARCHAR AS updated, version FROM persons')).toEqual([
          { updated: '2024-06-01 00:00:00+00', version: 0n },
        ]);
        await opened.append(
          7,
          parseCapturePayload(
            {
              api_key: 't',
              batch: [
                { event: 'y', distinct_id: 'new' },
                { event: '$identify', distinct_id: 'old', properties: { $anon_distinct_id: 'new' } },
              ],
            },
            NOW,
          ).events,
        );
        const rows = await opened.all<{ uuid: string; person_id: string }>(`SELECT e.uuid, pdi.person_id FROM events e
          JOIN person_distinct_ids pdi USING (team_id, distinct_id) ORDER BY e.timestamp, e.uuid`);
        expect(rows).toHaveLength(3);
        const [stored] = await opened.all<{ person_id: string }>(
          "SELECT person_id FROM events WHERE uuid = '00000000-0000-4000-8000-000000000001'",
        );
        expect(stored!.person_id).toBe('11111111-1111-4111-8111-111111111111');
        expect(rows[0]).toEqual({
          uuid: '00000000-0000-4000-8000-000000000001',
          person_id: '11111111-1111-4111-8111-111111111111',
        });
        expect(new Set(rows.map((r) => r.person_id))).toEqual(new Set(['11111111-1111-4111-8111-111111111111']));
        // The old row got its person's integer key on open: the key the new rows of that person store.
        const keys = await opened.all<{
          n: number;
          k: number;
        }>(`SELECT count(*)::INTEGER AS n, count(DISTINCT k.key)::INTEGER AS k FROM events e
          JOIN person_keys k ON k.team_id = e.team_id AND k.key = e.person_key AND k.person_id = e.person_id`);
        expect(keys).toEqual([{ n: 3, k: 1 }]);
      } finally {
        await opened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('appends made while the writer is busy (group commit)', () => {
  const events = (batch: object[]) => parseCapturePayload({ api_key: 't', batch }, NOW).events;
  const count = async (db: typeof store, where: string, params: unknown[]) =>
    (await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM events WHERE ${where}`, params))[0]!.n;

  it('stores every one of many concurrent appends, each readable as soon as its promise resolves', async () => {
    const grouped = createEventStore(':memory:');
    try {
      await grouped.ready();
      const seen: number[] = [];
      await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const stored = await grouped.append(
            20 + (i % 3),
            events(Array.from({ length: 5 }, (_, j) => ({ event: 'g', distinct_id: `g${i}-${j}` }))),
          );
          expect(stored).toBe(5);
          // answered only once written: a reader on another connection sees the rows right away
          seen.push(await count(grouped, 'team_id = $1 AND distinct_id LIKE $2', [20 + (i % 3), `g${i}-%`]));
        }),
      );
      expect(seen).toEqual(Array.from({ length: 30 }, () => 5));
      expect(await count(grouped, "event = 'g'", [])).toBe(150);
    } finally {
      await grouped.close();
    }
  });

  it('fails only the append whose rows cannot be stored: the others of its group are stored', async () => {
    const grouped = createEventStore(':memory:');
    try {
      await grouped.ready();
      const results = await Promise.allSettled([
        grouped.append(30, events([{ event: 'ok', distinct_id: 'before' }])),
        // a lone surrogate is not valid UTF-8: DuckDB refuses the row (HTTP ingestion replaces it first)
        grouped.append(30, events([{ event: 'bad', distinct_id: 'bad', properties: { text: 'x\ud800' } }])),
        grouped.append(31, events([{ event: 'ok', distinct_id: 'other-project' }])),
        grouped.append(30, events([{ event: 'ok', distinct_id: 'after', $set: { plan: 'pro' } }])),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect(await count(grouped, "event = 'ok'", [])).toBe(3);
      expect(await count(grouped, "event = 'bad'", [])).toBe(0);
      const persons = await grouped.all<{
        distinct_id: string;
        properties: string;
      }>(`SELECT d.distinct_id, p.properties FROM person_distinct_ids d
        JOIN persons p ON p.team_id = d.team_id AND p.id = d.person_id ORDER BY d.distinct_id`);
      expect(persons.map((p) => p.distinct_id)).toEqual(['after', 'before', 'other-project']);
      expect(JSON.parse(persons[0]!.properties)).toEqual({ plan: 'pro' });
    } finally {
      await grouped.close();
    }
  });

  it('gives the same persons and analyses as the same appends one after another', async () => {
    const batches = [
      [{ event: 'view', distinct_id: 'anon', $set: { plan: 'free', first: 'anon' } }],
      [{ event: 'view', distinct_id: 'user', $set_once: { signup: 'web' } }],
      [{ event: '$identify', distinct_id: 'user', properties: { $anon_distinct_id: 'anon' } }],
      [{ event: 'buy', distinct_id: 'anon', $set: { plan: 'pro' } }],
      [
        { event: '$create_alias', distinct_id: 'phone', properties: { alias: 'user' } },
        { event: 'open', distinct_id: 'phone' },
      ],
    ].map((b) => b.map((e, i) => ({ ...e, timestamp: `2025-01-01T10:0${i}:00Z` })));
    const together = createEventStore(':memory:');
    const oneByOne = createEventStore(':memory:');
    try {
      await together.ready();
      await Promise.all(batches.map((b) => together.append(40, events(b))));
      for (const b of batches) await oneByOne.append(40, events(b));
      const state = async (db: typeof store) => ({
        persons: (
          await db.all<{ properties: string; is_identified: boolean }>(
            'SELECT properties, is_identified FROM persons WHERE team_id = 40',
          )
        ).map((p) => ({ properties: JSON.parse(p.properties) as unknown, is_identified: p.is_identified })),
        ids: (
          await db.all<{ distinct_id: string; person_id: string }>(
            'SELECT distinct_id, person_id FROM person_distinct_ids WHERE team_id = 40 ORDER BY distinct_id',
          )
        ).map((r, _, all) => [r.distinct_id, r.person_id === all[0]!.person_id]),
        // every event resolves to the one surviving person, through its stored person or an override
        people:
          await db.all(`SELECT e.event, count(DISTINCT coalesce(ov.person_id, e.person_id))::INTEGER AS n FROM events e
          LEFT JOIN person_overrides ov ON ov.team_id = e.team_id AND ov.old_person_id = e.person_id GROUP BY e.event ORDER BY e.event`),
      });
      const expected = await state(oneByOne);
      expect(expected.persons).toEqual([
        { properties: { signup: 'web', plan: 'pro', first: 'anon' }, is_identified: true },
      ]);
      expect(await state(together)).toEqual(expected);
    } finally {
      await together.close();
      await oneByOne.close();
    }
  });

  it('keeps the order of writes: an append made after a purge is not purged by it', async () => {
    const grouped = createEventStore(':memory:');
    try {
      await grouped.ready();
      await Promise.all([
        grouped.append(50, events([{ event: 'old', distinct_id: 'p' }])),
        grouped.purge([50]),
        grouped.append(50, events([{ event: 'new', distinct_id: 'p' }])),
      ]);
      expect(await grouped.all('SELECT event FROM events WHERE team_id = 50')).toEqual([{ event: 'new' }]);
    } finally {
      await grouped.close();
    }
  });
});
