import type { FunnelWindowUnit } from '../../../src/contract/analytics.ts';
import type { ColumnType } from '../store/db-types.ts';
import { funnelCut, UNIT_MS } from './funnel-pass.ts';
import type { SqlParams } from '../query/properties.ts';

/**
 * The SQL side of a funnel: which rows reach the per-person pass (funnel-pass.ts). Input is a
 * CTE `ev` (and `evp`, the part of it the per-person aggregate reads) with columns person_id
 * (integer key), uuid, ts (ms), sm (INTEGER, bit k: matches step k), xm (bit i: matches
 * exclusion i), bd (with a breakdown, what its text is read from: see `breakdownText`; else
 * NULL) and bucket (trends viz; else NULL). Most of a funnel's rows are step-1 events of persons
 * who never reach step 2: one aggregate per person (`pa`) counts those persons as one row each
 * (`quick`; with a breakdown, their first start's events), and only the other persons' events
 * that an attempt can use (`evm`) go through the pass (see movers).
 */

export interface FunnelSqlOptions {
  steps: number;
  order: 'ordered' | 'strict' | 'unordered';
  window: { interval: number; unit: FunnelWindowUnit };
  exclusions: { from: number; to: number }[];
  /** `ev.bd` holds what a breakdown's value is read from (else it is NULL throughout and not read). */
  breakdown: boolean;
  /** SQL: the breakdown's text from a row's `bd` (a materialized column's text as it is, or the JSON to read it from); default `bd`. */
  breakdownText?: string;
  /** Counted attempts per bucket of their start too (trends viz); else `ev.bucket` is NULL throughout and not read. */
  byBucket: boolean;
}

/** SQL: the last instant (ms, inclusive) an attempt started at `t` may convert at (as deadlineMs in funnel-pass.ts). */
export function deadlineSql(t: string, window: FunnelSqlOptions['window'], params: SqlParams): string {
  if (window.unit === 'month') {
    return `epoch_ms(make_timestamp((${t})::BIGINT * 1000) + to_months(${params.add(window.interval)}::INTEGER))`;
  }
  return `((${t}) + ${params.add(window.interval * UNIT_MS[window.unit])}::BIGINT)`;
}

/**
 * SQL boolean: the row's mask `col` has any of bits `ks`. The masks are computed once per row
 * in `ev`, where the event name is still dictionary-encoded; testing a bit later costs next to
 * nothing, where testing the name again after a join costs a string comparison per row.
 */
const anyBit = (col: string, ks: number[]) => `((${col} & ${ks.reduce((m, k) => m + 2 ** k, 0)}) <> 0)`;

/**
 * Persons who cannot get past step 1 and the rows the others need (`pa`, `quick`, `evm`). Most
 * of a funnel's rows are step-1 events of persons who never reach step 2: sorting them per
 * person is most of a funnel's time, and it decides nothing.
 * - `pa`: per person (and bucket), the first step-1 instant `f0` and the first and last
 *   instants `f1`, `l1` of an event that could advance an attempt (matches step 2, or in
 *   unordered funnels any later step; none: NULL).
 * - `quick`: persons without such an event reach step 1 only, in every attempt: their counted
 *   attempt is the first start, whose time the aggregate already holds. With a breakdown the
 *   start's value is that of its event, the first by uuid at that instant: their step-1 events
 *   at `f0` come from `ev` (marked `q` in `evm`, whose `pm` then holds them too; per bucket
 *   and in one-step funnels, `qev`) and the pass picks it, as for everyone else. (Taking the
 *   value in the aggregate, by (time, uuid), cost twice the whole aggregate on 10M events.)
 * - `evm`: the other persons' events, the input of the attempts. Ordered and strict funnels
 *   (without per-bucket bests) also drop the events no counted attempt can use: before the first
 *   step-2 event by more than the window (no start there reaches step 2, and the ties at the
 *   first start are kept for when no attempt does) and after the window of the last step-2
 *   event. Dropping such an event changes no attempt that reaches step 2: nothing after it
 *   moves, and the first start, whose next event may change, reaches step 1 only.
 */
function movers(o: FunnelSqlOptions, params: SqlParams): string {
  const { aggregated, advancing, reachBackMs } = funnelCut(o);
  const advance = advancing.length === 0 ? 'false' : anyBit('sm', advancing);
  const stats =
    o.steps === 1
      ? 'NULL::BIGINT AS f1, NULL::BIGINT AS l1'
      : `min(ts) FILTER (WHERE ${advance}) AS f1, max(ts) FILTER (WHERE ${advance}) AS l1`;
  // Only the aggregates this funnel reads: each one costs on every row of the largest step.
  const fa = o.order === 'unordered' ? 'min(ts)' : 'NULL::BIGINT';
  const pa = `pa AS (SELECT person_id, ${o.byBucket ? 'bucket' : 'NULL::BIGINT AS bucket'}, min(ts) FILTER (WHERE ${anyBit('sm', [0])}) AS f0, ${fa} AS fa, ${stats}
      FROM evp WHERE ${anyBit('sm', aggregated)} GROUP BY person_id${o.byBucket ? ', bucket' : ''})`;
  const firstStarts = `${anyBit('ev.sm', [0])} AND ev.ts = q.ts`;
  if (o.byBucket) {
    // An attempt's later steps may lie in any bucket: "advancing" is the person's, in any bucket,
    // and every event of an advancing person is kept.
    return `${pa},
    pm AS (SELECT person_id FROM pa GROUP BY person_id HAVING count(f1) > 0),
    quick AS (SELECT person_id, bucket, f0 AS ts FROM pa ANTI JOIN pm USING (person_id) WHERE f0 IS NOT NULL),
    evm AS (SELECT ev.*, false AS q FROM ev SEMI JOIN pm USING (person_id))${
      o.breakdown
        ? `,
    qev AS (SELECT ev.* FROM ev JOIN quick q ON q.person_id = ev.person_id AND q.bucket = ev.bucket WHERE ${firstStarts})`
        : ''
    }`;
  }
  const quick = 'quick AS (SELECT person_id, bucket, f0 AS ts FROM pa WHERE f1 IS NULL AND f0 IS NOT NULL)';
  if (o.steps === 1) {
    return `${pa},\n    ${quick},\n    evm AS (SELECT *, false AS q FROM ev WHERE false)${
      o.breakdown
        ? `,
    qev AS (SELECT ev.* FROM ev JOIN quick q ON q.person_id = ev.person_id WHERE ${firstStarts})`
        : ''
    }`;
  }
  // The first start (unordered: the first anchor, which may match any step), kept for when no
  // attempt gets past step 1.
  const first = o.order === 'unordered' ? 'ev.ts = pm.fa' : `(${anyBit('ev.sm', [0])} AND ev.ts = pm.f0)`;
  // Ordered: a start after the last step-2 event reaches step 1 only, so an event that can only
  // be a start is not needed there; any other step's event counts up to the window (one that
  // also matches step 1, A → B → A, may still be a later step). Strict: any event may be the
  // "next" one of an attempt, up to the window. Unordered: any step's first event at or after
  // an anchor, up to the window. `lo` bounds the starts whose window reaches f1 from below
  // (months: 31 days each, never past the calendar's bound, so a few more rows may come); the
  // bounds are per person, so each event is tested with plain comparisons.
  const onlyStart = o.order === 'ordered' ? ' AND (ev.sm <> 1 OR ev.ts <= pm.l1)' : '';
  const cut = `(ev.ts >= pm.lo AND ev.ts <= pm.hi${onlyStart}) OR ${first}`;
  const pm = (where: string) =>
    `pm AS (SELECT person_id, f0, fa, l1, f1 IS NULL AS q, f1 - ${params.add(reachBackMs)}::BIGINT AS lo, ${deadlineSql('l1', o.window, params)} AS hi FROM pa WHERE ${where})`;
  if (o.breakdown) {
    // The quick persons' first starts come through the same join (one scan of ev): q marks them.
    return `${pa},
    ${pm('f1 IS NOT NULL OR f0 IS NOT NULL')},
    evm AS (SELECT ev.*, pm.q FROM ev JOIN pm ON pm.person_id = ev.person_id
      WHERE CASE WHEN pm.q THEN ${anyBit('ev.sm', [0])} AND ev.ts = pm.f0 ELSE ${cut} END)`;
  }
  return `${pa},
    ${quick},
    ${pm('f1 IS NOT NULL')},
    evm AS (SELECT ev.*, false AS q FROM ev JOIN pm ON pm.person_id = ev.person_id WHERE ${cut})`;
}

/**
 * The statement (after `WITH ev AS (…),`) whose rows feed the pass, and their column types, in
 * funnel-pass.ts's FunnelRows order: person_id, ts, steps (bit k: step k), uuid, then excl and
 * role (with exclusions), bd (with a breakdown), bucket (trends viz). A `quick` person is one
 * step-1 row (with a breakdown, one per step-1 event at their first start); with exclusions,
 * every exclusion event of `ev` comes too, as role 1.
 */
export function funnelRowsSql(o: FunnelSqlOptions, params: SqlParams): { sql: string; types: ColumnType[] } {
  const hasExcl = o.exclusions.length > 0;
  const row = (from: { steps: string; uuid: string; excl: string; role: number; bd: string }) =>
    [
      'person_id',
      'ts::DOUBLE',
      from.steps,
      from.uuid,
      ...(hasExcl ? [from.excl, `${from.role}::INTEGER`] : []),
      ...(o.breakdown ? [from.bd] : []),
      ...(o.byBucket ? ['bucket::DOUBLE'] : []),
    ].join(', ');
  const text = o.breakdownText ?? 'bd';
  // Without a breakdown a quick person is one row from the aggregate; with one, their rows came
  // through evm (q) or, per bucket and in one-step funnels, qev.
  const quickPart = !o.breakdown
    ? `SELECT ${row({ steps: '1::INTEGER', uuid: 'NULL::UUID', excl: '0::INTEGER', role: 0, bd: 'NULL::VARCHAR' })} FROM quick`
    : o.byBucket || o.steps === 1
      ? `SELECT ${row({ steps: '1::INTEGER', uuid: 'uuid', excl: '0::INTEGER', role: 0, bd: text })} FROM qev`
      : null;
  // The pass reads a row's value only where an attempt starts (step 1; unordered: any step):
  // the other rows bring none to read.
  const starts = o.order === 'unordered' ? 'sm <> 0' : anyBit('sm', [0]);
  const parts = [
    `SELECT ${row({ steps: 'CASE WHEN q THEN 1 ELSE sm END', uuid: 'uuid', excl: 'CASE WHEN q THEN 0 ELSE xm END', role: 0, bd: `CASE WHEN ${starts} THEN ${text} END` })} FROM evm`,
    ...(quickPart ? [quickPart] : []),
    ...(hasExcl
      ? [
          `SELECT ${row({ steps: '0::INTEGER', uuid: 'NULL::UUID', excl: 'xm', role: 1, bd: 'NULL::VARCHAR' })} FROM ev WHERE xm <> 0`,
        ]
      : []),
  ];
  const types: ColumnType[] = [
    'int32',
    'double',
    'int32',
    'uuid',
    ...(hasExcl ? (['int32', 'int32'] as const) : []),
    ...(o.breakdown ? (['text'] as const) : []),
    ...(o.byBucket ? (['double'] as const) : []),
  ];
  // Sorted by person (DuckDB sorts in parallel and in cache-sized runs): the pass then reads
  // each person's rows side by side, several times faster than gathering them from anywhere.
  // It orders each person's few events itself (funnel-pass.ts), so ordered and unordered
  // funnels sort on the key alone (a third of a 10M funnel's sort); a strict funnel's persons
  // bring every event they have in the window, which the pass would take longer to order.
  return {
    sql: `${movers(o, params)}\n${parts.join('\nUNION ALL ')}\nORDER BY ${o.order === 'strict' ? '1, 2' : '1'}`,
    types,
  };
}
