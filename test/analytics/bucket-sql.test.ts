import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERVALS } from '../../src/contract/analytics-params.ts';
import { bucketMsSql } from '../../server/analytics/query/bucket-sql.ts';
import { toWall, truncWall } from '../../server/analytics/query/dates.ts';

/**
 * The SQL that buckets events (trends) gives, in DuckDB, the bucket the JavaScript wall-time
 * arithmetic gives: every interval, both week starts, zones with a DST change and a half-hour
 * offset, instants on both sides of a change and before 1970.
 */

const INSTANTS = [
  '1965-06-15T12:00:00Z',
  '1969-12-31T23:30:00Z',
  '1970-01-01T00:00:00Z',
  '1970-01-04T03:00:00Z',
  '2024-03-10T06:59:59.999Z',
  '2024-03-10T07:00:00Z',
  '2024-03-31T00:59:59Z',
  '2024-03-31T01:00:00Z',
  '2024-11-03T05:30:00Z',
  '2024-11-03T06:30:00Z',
  '2024-12-31T23:59:59.999Z',
  '2025-01-05T18:45:00Z',
].map((s) => Date.parse(s));

let db: DuckDBInstance;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
});
afterAll(() => db.closeSync());

async function sqlBuckets(
  interval: (typeof INTERVALS)[number],
  weekStart: 0 | 1,
  timeZone: string,
  from: number,
  to: number,
) {
  const params: unknown[] = [];
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const expr = bucketMsSql(interval, weekStart, 't.ts', add, timeZone, from, to);
  const values = INSTANTS.filter((i) => i >= from && i <= to)
    .map((i) => `(make_timestamptz(${i * 1000}::BIGINT))`)
    .join(', ');
  const con = await db.connect();
  try {
    const reader = await con.runAndReadAll(
      `SELECT epoch_ms(t.ts)::BIGINT AS at, (${expr})::BIGINT AS bucket FROM (VALUES ${values}) AS t(ts) ORDER BY 1`,
      params as never,
    );
    return reader.getRowObjectsJson().map((r): [number, number] => [Number(r.at), Number(r.bucket)]);
  } finally {
    con.closeSync();
  }
}

describe('bucketMsSql', () => {
  for (const timeZone of ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata']) {
    for (const interval of INTERVALS) {
      for (const weekStart of [0, 1] as const) {
        if (interval !== 'week' && weekStart === 1) continue;
        it(`${interval}${interval === 'week' ? ` (weeks from ${weekStart ? 'Monday' : 'Sunday'})` : ''} in ${timeZone}`, async () => {
          // One range across 1970 and one across this century's DST changes (a CASE per change).
          for (const [from, to] of [
            [INSTANTS[0]!, INSTANTS[3]!],
            [INSTANTS[4]!, INSTANTS[11]!],
          ] as const) {
            const rows = await sqlBuckets(interval, weekStart, timeZone, from, to);
            expect(rows.length).toBeGreaterThan(0);
            expect(rows).toEqual(rows.map(([at]) => [at, truncWall(toWall(at, timeZone), interval, weekStart)]));
          }
        });
      }
    }
  }
});
