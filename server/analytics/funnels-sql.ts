import type { FunnelWindowUnit } from '../../src/contract/analytics.ts';
import type { SqlParams } from './properties.ts';

/**
 * The SQL of a funnel: one statement, no per-step round trips. Input is a CTE `ev` with columns
 * person_id, uuid, ts (ms), s0…s{n-1} (matches step k), x0…x{m-1} (matches exclusion i), bd
 * (breakdown text or NULL) and bucket (trends viz; else NULL). It builds:
 *   pa, quick, evm                                  persons who cannot pass step 1 counted from
 *                                                   one aggregate (`quick`), the others' events
 *                                                   that an attempt can use (`evm`, see movers)
 *   attempts(person_id, q0, bd, bucket, r0…, n)     one per start event; q0 = its rank in the
 *                                                   person's order (personOrder), n = steps reached
 *   best                                            per person (and bucket): the furthest
 *                                                   attempt, ties → the first start (max_by n,
 *                                                   −q0); `times` = the reached steps' timestamps
 *                                                   (ms), step 1 first, built for it alone; and
 *                                                   the `quick` persons
 *   counted                                         best minus excluded persons, with `grp`/`kind`
 *                                                   (breakdown label: 0 value, 1 Other, 2 None)
 * ordered: hash joins chain "the first step-k event after step k-1" per attempt (greedy, which
 * reaches furthest for a given start; ASOF joins cost several times more on these few rows);
 * strict: lead() over all the person's kept events;
 * unordered: per step, the first matching event at or after the anchor (lead … IGNORE NULLS).
 */

export interface FunnelSqlOptions {
  steps: number;
  order: 'ordered' | 'strict' | 'unordered';
  window: { interval: number; unit: FunnelWindowUnit };
  exclusions: { from: number; to: number }[];
  breakdownLimit: number;
  /** `ev.bd` holds a breakdown value (else it is NULL throughout and is not carried through the window sorts). */
  breakdown: boolean;
  /** Partition best attempts by bucket too (trends viz); else `ev.bucket` is NULL throughout and not carried. */
  byBucket: boolean;
}

const UNIT_MS: Record<Exclude<FunnelWindowUnit, 'month'>, number> = {
  second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000,
};

/** SQL: the last instant (ms, inclusive) an attempt started at `t` may convert at. */
export function deadlineSql(t: string, window: FunnelSqlOptions['window'], params: SqlParams): string {
  if (window.unit === 'month') {
    return `epoch_ms(make_timestamp((${t})::BIGINT * 1000) + to_months(${params.add(window.interval)}::INTEGER))`;
  }
  return `((${t}) + ${params.add(window.interval * UNIT_MS[window.unit])}::BIGINT)`;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * A person's events in time order; at one instant, by the first step an event matches (an event
 * matching no step first), then uuid: a later step at the same instant as an earlier one comes
 * after it, so it counts as converted (as in the production service).
 */
function personOrder(n: number): string {
  return `PARTITION BY person_id ORDER BY ts, CASE ${range(n).map((k) => `WHEN s${k} THEN ${k}`).join(' ')} ELSE -1 END, uuid`;
}

function anyStep(n: number): string {
  return `(${range(n).map((k) => `s${k}`).join(' OR ')})`;
}

/**
 * The `ev` columns a window sort carries. Breakdown value and bucket are carried only when
 * they vary: every byte of a row is moved by the sort, the costliest part of a funnel.
 */
const stepCols = (o: FunnelSqlOptions) =>
  ['person_id', 'ts', ...range(o.steps).map((k) => `s${k}`), ...(o.breakdown ? ['bd'] : []), ...(o.byBucket ? ['bucket'] : [])].join(', ');

/** SELECT list entries restoring `bd`/`bucket` as NULL where {@link stepCols} left them out. */
const constantCols = (o: FunnelSqlOptions) =>
  [...(o.breakdown ? [] : ['NULL::VARCHAR AS bd']), ...(o.byBucket ? [] : ['NULL::BIGINT AS bucket'])].map((c) => `, ${c}`).join('');

/** `, bd, bucket` from a window's output: the carried columns, else their NULLs. */
const bdBucket = (o: FunnelSqlOptions) => `${o.breakdown ? ', bd' : ''}${o.byBucket ? ', bucket' : ''}${constantCols(o)}`;

/**
 * Ordered attempts. A start whose next step event is another step-1 event not matching step 2
 * follows the same chain as that later start with an earlier deadline, so it reaches at most as
 * far: chains are computed only from the last start of each such run (`p0` = the previous run's
 * last start, so a run is the step-1 events in (p0, q0]). {@link firstOfRun} then moves a
 * person's picked attempt to the first start of its run still reaching as far (first start
 * wins ties). With per-bucket bests (trends viz) a run stays inside one bucket.
 */
function orderedAttempts(o: FunnelSqlOptions, params: SqlParams): string {
  const ctes = [
    `seqd AS (SELECT ${stepCols(o)}, row_number() OVER w AS seq, coalesce(lead(${o.steps > 1 ? 's0 AND NOT s1' : 's0'}) OVER w${o.byBucket ? ' AND lead(bucket) OVER w = bucket' : ''}, false) AS dominated
      FROM evm WHERE ${anyStep(o.steps)} WINDOW w AS (${personOrder(o.steps)}))`,
    `a0 AS (SELECT person_id, seq AS q0, coalesce(lag(seq) OVER (PARTITION BY person_id ORDER BY seq), 0) AS p0, ts AS t0${bdBucket(o)}, ${deadlineSql('ts', o.window, params)} AS dl
      FROM seqd WHERE s0 AND NOT dominated)`,
  ];
  for (let k = 1; k < o.steps; k++) {
    const prev = k === 1 ? 'true' : `a.t${k - 1} IS NOT NULL`;
    ctes.push(`m${k} AS (SELECT a.person_id, a.q0, min({'seq': b.seq, 'ts': b.ts}) AS m FROM a${k - 1} a JOIN seqd b
      ON a.person_id = b.person_id AND b.s${k} AND a.q${k - 1} < b.seq GROUP BY a.person_id, a.q0)`);
    ctes.push(`a${k} AS (SELECT a.*, m.m.seq AS q${k}, CASE WHEN ${prev} AND m.m.ts <= a.dl THEN m.m.ts END AS t${k}
      FROM a${k - 1} a LEFT JOIN m${k} m ON m.person_id = a.person_id AND m.q0 = a.q0)`);
  }
  ctes.push(`attempts AS (SELECT person_id, q0, p0, bd, bucket, ${prefixAttempt(o.steps)} FROM a${o.steps - 1})`);
  return ctes.join(',\n');
}

/**
 * `picked` (ordered) → `chosen`: each picked attempt restarted at the first step-1 event of its
 * run (seq in (p0, q0]) whose deadline still covers the last reached step (any, when only step 1
 * is reached), with that event's time and breakdown value.
 */
function firstOfRun(o: FunnelSqlOptions, params: SqlParams): string {
  const last = `list_extract([${range(o.steps).map((k) => `p.r${k}`).join(', ')}], p.n)`;
  const rs = range(o.steps).slice(1).map((k) => `p.r${k}`).join(', ');
  return `firsts AS (SELECT p.person_id, p.q0, min(s.seq) AS m, arg_min(s.ts, s.seq) AS mt${o.breakdown ? ', arg_min_null(s.bd, s.seq) AS mbd' : ''}
      FROM picked p JOIN seqd s ON s.person_id = p.person_id AND s.s0 AND s.seq > p.p0 AND s.seq <= p.q0
      WHERE p.n = 1 OR ${deadlineSql('s.ts', o.window, params)} >= ${last}
      GROUP BY p.person_id, p.q0),
    chosen AS (SELECT p.person_id, f.m AS q0, ${o.breakdown ? 'f.mbd' : 'p.bd'} AS bd, p.bucket, f.mt AS r0${rs ? `, ${rs}` : ''}, p.n
      FROM picked p JOIN firsts f ON f.person_id = p.person_id AND f.q0 = p.q0)`;
}

/** Attempt columns when the reached steps are t0…t_{k}: r0…, their count n. */
function prefixAttempt(n: number): string {
  return `${range(n).map((k) => `t${k} AS r${k}`).join(', ')}, 1${range(n).slice(1).map((k) => ` + (t${k} IS NOT NULL)::INTEGER`).join('')} AS n`;
}

function strictAttempts(o: FunnelSqlOptions, params: SqlParams): string {
  // v_k: the time of the k-th next event when it matches step k, else NULL (one lead per step).
  const leads = range(o.steps).slice(1).map((k) => `lead(CASE WHEN s${k} THEN ts END, ${k}) OVER w AS v${k}`);
  const t = range(o.steps).map((k) => {
    if (k === 0) return 't0';
    const prev = k === 1 ? 'true' : `t${k - 1} IS NOT NULL`;
    return `CASE WHEN ${prev} AND v${k} <= dl THEN v${k} END AS t${k}`;
  });
  // Each t_k refers to t_{k-1}: computed one CTE level at a time.
  const ctes = [
    `la AS (SELECT ${stepCols(o)}, row_number() OVER w AS seq${leads.map((l) => `, ${l}`).join('')} FROM evm WINDOW w AS (${personOrder(o.steps)}))`,
    `l0 AS (SELECT *${constantCols(o)}, ts AS t0, seq AS q0, ${deadlineSql('ts', o.window, params)} AS dl FROM la WHERE s0)`,
  ];
  for (let k = 1; k < o.steps; k++) ctes.push(`l${k} AS (SELECT *, ${t[k]} FROM l${k - 1})`);
  ctes.push(`attempts AS (SELECT person_id, q0, bd, bucket, ${prefixAttempt(o.steps)} FROM l${o.steps - 1})`);
  return ctes.join(',\n');
}

function unorderedAttempts(o: FunnelSqlOptions, params: SqlParams): string {
  const firsts = range(o.steps).map((k) => `CASE WHEN s${k} THEN ts ELSE lead(CASE WHEN s${k} THEN ts END IGNORE NULLS) OVER w END AS c${k}`);
  return [
    `ua AS (SELECT ${stepCols(o)}, row_number() OVER w AS seq, ${firsts.join(', ')} FROM evm WHERE ${anyStep(o.steps)} WINDOW w AS (${personOrder(o.steps)}))`,
    `ub AS (SELECT person_id, seq AS q0${bdBucket(o)}, ${range(o.steps).map((k) => `c${k} AS r${k}`).join(', ')}, ${deadlineSql('ts', o.window, params)} AS dl FROM ua)`,
    `attempts AS (SELECT *, ${range(o.steps).map((k) => `coalesce(r${k} <= dl, false)::INTEGER`).join(' + ')} AS n FROM ub)`,
  ].join(',\n');
}

/**
 * Persons who cannot get past step 1 and the rows the others need (`pa`, `quick`, `evm`). Most
 * of a funnel's rows are step-1 events of persons who never reach step 2: sorting them per
 * person is most of a funnel's time, and it decides nothing.
 * - `pa`: per person (and bucket), the first step-1 instant `f0`, its breakdown value `bd0`,
 *   whether any event could advance an attempt (`adv`: matches step 2, or in unordered funnels
 *   any later step), and the first and last step-2 instants `f1`, `l1`.
 * - `quick`: persons without such an event reach step 1 only, in every attempt: their counted
 *   attempt is the first start, whose time and value the aggregate already holds.
 * - `evm`: the other persons' events, the input of the attempts. Ordered and strict funnels
 *   (without per-bucket bests) also drop the events no counted attempt can use: before the first
 *   step-2 event by more than the window (no start there reaches step 2, and the ties at the
 *   first start are kept for when no attempt does) and after the window of the last step-2
 *   event. Dropping such an event changes no attempt that reaches step 2: nothing after it
 *   moves, and the first start, whose next event may change, reaches step 1 only.
 */
function movers(o: FunnelSqlOptions, params: SqlParams): string {
  const advance = o.steps === 1 ? 'false' : o.order === 'unordered' ? `(${range(o.steps).slice(1).map((k) => `s${k}`).join(' OR ')})` : 's1';
  const stats = o.steps === 1 ? 'NULL::BIGINT AS f1, NULL::BIGINT AS l1' : `min(ts) FILTER (WHERE ${advance}) AS f1, max(ts) FILTER (WHERE ${advance}) AS l1`;
  const bd0 = o.breakdown ? 'arg_min_null(bd, (ts, uuid)) FILTER (WHERE s0)' : 'NULL::VARCHAR';
  const pa = `pa AS (SELECT person_id, bucket, min(ts) FILTER (WHERE s0) AS f0, min(ts) AS fa, ${bd0} AS bd0, bool_or(${advance}) AS adv, ${stats}
      FROM ev WHERE s0 OR ${advance} GROUP BY person_id, bucket)`;
  if (o.byBucket) {
    // An attempt's later steps may lie in any bucket: "advancing" is the person's, in any bucket,
    // and every event of an advancing person is kept.
    return `${pa},
    pm AS (SELECT person_id FROM pa GROUP BY person_id HAVING bool_or(adv)),
    quick AS (SELECT person_id, bd0 AS bd, bucket, [f0] AS times FROM pa ANTI JOIN pm USING (person_id) WHERE f0 IS NOT NULL),
    evm AS (SELECT ev.* FROM ev SEMI JOIN pm USING (person_id))`;
  }
  const quick = 'quick AS (SELECT person_id, bd0 AS bd, bucket, [f0] AS times FROM pa WHERE NOT adv AND f0 IS NOT NULL)';
  if (o.steps === 1) return `${pa},\n    ${quick},\n    evm AS (SELECT * FROM ev WHERE false)`;
  // The first start (unordered: the first anchor, which may match any step), kept for when no
  // attempt gets past step 1.
  const first = o.order === 'unordered' ? 'ev.ts = pa.fa' : '(ev.s0 AND ev.ts = pa.f0)';
  // Ordered: a start after the last step-2 event reaches step 1 only; later steps' events count
  // up to its window. Strict: any event may be the "next" one of an attempt, up to the window.
  // Unordered: any step's first event at or after an anchor, up to the window.
  const last = o.order === 'ordered'
    ? `CASE WHEN ev.s0 AND NOT ev.s1 THEN pa.l1 ELSE ${deadlineSql('pa.l1', o.window, params)} END`
    : deadlineSql('pa.l1', o.window, params);
  return `${pa},
    ${quick},
    evm AS (SELECT ev.* FROM ev JOIN pa ON pa.person_id = ev.person_id
      WHERE pa.adv AND (${first} OR (${deadlineSql('ev.ts', o.window, params)} >= pa.f1 AND ev.ts <= ${last})))`;
}

/** The CTEs from `ev` to `counted` (see the module comment). */
export function funnelCtes(o: FunnelSqlOptions, params: SqlParams): string {
  const key = o.byBucket ? 'a.person_id, a.bucket' : 'a.person_id';
  const rs = range(o.steps).map((k) => `r${k}`).join(', ');
  // best: the attempt with the largest n, then the smallest q0 (< 2^40), i.e. the first-starting
  // of those reaching the furthest step (API-DECISIONS: in every order type).
  const bestCtes = `${movers(o, params)},
    ${o.order === 'strict' ? strictAttempts(o, params) : o.order === 'unordered' ? unorderedAttempts(o, params) : orderedAttempts(o, params)},
    picked AS (SELECT unnest(max_by(a, a.n::BIGINT * 1099511627776 - a.q0)) FROM attempts a GROUP BY ${key}),
    ${o.order === 'ordered' ? firstOfRun(o, params) : 'chosen AS (SELECT * FROM picked)'},
    best AS (SELECT person_id, bd, bucket, ${o.order === 'unordered' ? `list_sort(list_filter([${rs}], x -> x <= dl))` : `[${rs}][1:n]`} AS times FROM chosen
      UNION ALL SELECT person_id, bd, bucket, times FROM quick)`;
  const conditions = o.exclusions.map((x, i) => {
    const from = `${params.add(x.from + 1)}::INTEGER`;
    const to = `${params.add(x.to + 1)}::INTEGER`;
    const lo = `b.times[${from}]`;
    return `(x.x${i} AND len(b.times) >= ${from} AND x.ts > ${lo} AND (
      (len(b.times) >= ${to} AND x.ts < b.times[${to}]) OR
      (len(b.times) < ${to} AND x.ts <= ${deadlineSql(lo, o.window, params)})))`;
  });
  const excluded = conditions.length === 0
    ? `excluded AS (SELECT NULL::UUID AS person_id, NULL::BIGINT AS bucket WHERE false)`
    : `excluded AS (SELECT DISTINCT b.person_id, b.bucket FROM best b JOIN ev x ON x.person_id = b.person_id
        WHERE ${conditions.join(' OR ')})`;
  const limit = params.add(o.breakdownLimit);
  return `${bestCtes},
    ${excluded},
    kept AS (SELECT b.* FROM best b ANTI JOIN excluded x ON x.person_id = b.person_id ${o.byBucket ? 'AND x.bucket = b.bucket' : ''}),
    vals AS (SELECT bd, count(*) AS n FROM kept WHERE bd IS NOT NULL GROUP BY bd),
    top AS (SELECT bd FROM vals ORDER BY n DESC, bd LIMIT ${limit}::BIGINT),
    counted AS (SELECT k.*,
      CASE WHEN k.bd IS NULL THEN 'None' WHEN t.bd IS NOT NULL THEN k.bd ELSE 'Other' END AS grp,
      CASE WHEN k.bd IS NULL THEN 2 WHEN t.bd IS NOT NULL THEN 0 ELSE 1 END AS kind
      FROM kept k LEFT JOIN top t ON t.bd = k.bd)`;
}

/** Steps viz: per group, the count reaching each step and the mean/median seconds from the previous one. */
export function stepsSelect(steps: number): string {
  const cols = range(steps).flatMap((k) => {
    const reached = `len(times) >= ${k + 1}`;
    if (k === 0) return [`count(*) FILTER (WHERE ${reached}) AS c0`];
    const gap = `(times[${k + 1}] - times[${k}]) / 1000.0`;
    return [
      `count(*) FILTER (WHERE ${reached}) AS c${k}`,
      `avg(${gap}) FILTER (WHERE ${reached}) AS a${k}`,
      `quantile_cont(${gap}, 0.5) FILTER (WHERE ${reached}) AS m${k}`,
    ];
  });
  return `SELECT grp, kind, ${cols.join(', ')} FROM counted GROUP BY grp, kind`;
}

/** trends viz: per group and bucket, persons entering and persons reaching the last step. */
export function trendsSelect(steps: number): string {
  return `SELECT grp, kind, bucket, count(*) AS entered, count(*) FILTER (WHERE len(times) = ${steps}) AS converted
    FROM counted GROUP BY grp, kind, bucket`;
}

/** time_to_convert: seconds from step 1 to the last step, per converted person. */
export function timesSelect(steps: number): string {
  return `SELECT (times[${steps}] - times[1]) / 1000.0 AS seconds FROM counted WHERE len(times) = ${steps} ORDER BY seconds`;
}
