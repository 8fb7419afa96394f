import {
  AGGREGATED_DISPLAYS,
  ANALYTICS_LIMITS,
  formulasWithPath,
  orderedEntities,
  type Entity,
  type Interval,
  type TrendParams,
  type TrendSeries,
} from '../../../src/contract/analytics.ts';
import {
  addWall,
  bucketStarts,
  formatInstant,
  fromWall,
  MIN_INSTANT,
  previousAnchor,
  resolveDateRange,
  toWall,
  truncWall,
  type DateRange,
} from '../query/dates.ts';
import { AnalyticsParamError } from '../errors.ts';
import { checkRegexes, regexPatterns } from '../query/filters.ts';
import { formulaOf } from './formula.ts';
import {
  activeQuery,
  binRangeQuery,
  trendQuery,
  type PeriodQuery,
  type TrendQueryInput,
  type TrendRow,
} from './trends-sql.ts';
import { assembleSeries, type PeriodResult, type SeriesValues, type TrendFormula } from './trends-assemble.ts';
import type { TrendSeriesSpec } from './trends-types.ts';
import { breakdownsOf, withEdges, type Breakdown } from '../query/breakdowns.ts';
import { cohortSplitOf, interleave, restrictedTo } from '../query/cohort-breakdown.ts';
import { hogqlSql } from '../hogql/index.ts';
import { envOf, materializedFor, SqlParams } from '../query/properties.ts';
import type { QueryContext } from '../types.ts';
import { aggregationOf, groupTypesFor } from '../query/groups.ts';

export type { TrendSeriesSpec } from './trends-types.ts';
export {
  BREAKDOWN_NULL_LABEL,
  BREAKDOWN_NULL_VALUE,
  BREAKDOWN_OTHER_LABEL,
  BREAKDOWN_OTHER_VALUE,
} from './trends-types.ts';

/** Most buckets one trend may have (an hourly trend over years is a 400 on `interval`). */

const ACTIVE_DAYS = { weekly_active: 7, monthly_active: 30 } as const;
const COMPARE_TO = /^-(\d{1,5})([hdwmqy])$/;
const UNIT_INTERVAL = { h: 'hour', d: 'day', w: 'week', m: 'month', q: 'quarter', y: 'year' } as const;

function seriesSpecs(params: TrendParams): TrendSeriesSpec[] {
  if (params.actions?.length) {
    const i = params.actions.findIndex(() => true);
    throw new AnalyticsParamError('actions', `Action ${String(params.actions[i]?.id)} does not exist.`);
  }
  return orderedEntities(params).map((entity: Entity, index): TrendSeriesSpec => {
    const event = entity.id === null ? null : String(entity.id);
    return {
      index,
      entity,
      event,
      math: entity.math,
      mathProperty: entity.math_property ?? null,
      mathHogql: entity.math === 'hogql' ? (entity.math_hogql ?? null) : null,
      properties: entity.properties,
      label: entity.custom_name || entity.name || (event ?? 'All events'),
    };
  });
}

/** The position of a series entry in its list (`events` or `actions`), for an error's attr. */
function entityIndex(params: TrendParams, entity: Entity): number {
  return (entity.type === 'actions' ? params.actions : params.events)?.indexOf(entity) ?? 0;
}

/** Every check the params schema cannot do: unsupported options, formula, regexes, compare_to. */
async function validate(
  params: TrendParams,
  series: TrendSeriesSpec[],
  ctx: QueryContext,
  groupTypes: readonly string[],
): Promise<TrendFormula[]> {
  aggregationOf(params, groupTypes);
  breakdownsOf(params, groupTypes);
  for (const s of series) {
    if (s.mathHogql !== null)
      hogqlSql(
        s.mathHogql,
        'aggregate',
        new SqlParams(),
        `${s.entity.type}__${entityIndex(params, s.entity)}__math_hogql`,
      );
  }
  if (params.compare && params.compare_to && !COMPARE_TO.test(params.compare_to)) {
    throw new AnalyticsParamError('compare_to', 'Enter a relative offset such as -7d, -1w or -1m.');
  }
  const formulas = formulasWithPath(params).map(({ text, path }) => {
    try {
      return { text, node: formulaOf(text, series.length)! };
    } catch (error) {
      throw new AnalyticsParamError(path.join('__'), (error as Error).message);
    }
  });
  const patterns = [
    ...regexPatterns(params.properties, 'properties', ctx.cohorts, groupTypes),
    ...series.flatMap((s) => regexPatterns(s.properties, `events__${s.index}__properties`, ctx.cohorts, groupTypes)),
  ];
  await checkRegexes(ctx.db, patterns);
  return formulas;
}

/**
 * The previous period (docs/api.md, "compare"): as many buckets as the current one, from the
 * bucket holding date_from − (date_to − date_from) (or date_from shifted back by `compare_to`).
 * Days, weeks and months measure that span on the local calendar, so a week across a
 * daylight-saving change follows the week before it; hours measure it in real time.
 */
function previousRange(
  range: DateRange,
  compareTo: string | null | undefined,
  interval: Interval,
  buckets: number,
): { from: number; toExclusive: number } {
  const m = compareTo ? COMPARE_TO.exec(compareTo) : null;
  let anchor: number;
  if (m) {
    const unit = UNIT_INTERVAL[m[2] as keyof typeof UNIT_INTERVAL];
    const wall = toWall(range.exactFrom, range.timeZone);
    anchor = range.exactFrom - (wall - addWall(wall, unit, -Number(m[1])));
  } else {
    anchor = previousAnchor(range.exactFrom, range.to, interval, range.timeZone);
  }
  if (!(anchor >= MIN_INSTANT)) throw new AnalyticsParamError('date_from', 'Enter a valid date.');
  const first = truncWall(toWall(anchor, range.timeZone), interval, range.weekStart);
  return {
    from: fromWall(first, range.timeZone),
    toExclusive: fromWall(addWall(first, interval, buckets), range.timeZone),
  };
}

async function runPeriod(
  ctx: QueryContext,
  input: TrendQueryInput,
  period: PeriodQuery,
  interval: Interval,
): Promise<PeriodResult> {
  const tz = ctx.project.timezone;
  if (period.from < MIN_INSTANT) throw new AnalyticsParamError('date_from', 'Enter a valid date.');
  const buckets = bucketStarts(
    toWall(period.from, tz),
    toWall(period.toExclusive - 1, tz),
    interval,
    ctx.project.week_start_day,
  );
  const cells = buckets.length * input.series.length * (input.breakdown ? input.breakdownLimit + 2 : 1);
  if (cells > ANALYTICS_LIMITS.trendCells) {
    throw new AnalyticsParamError(
      input.breakdown ? 'breakdown_limit' : 'interval',
      `This trend would have ${cells.toLocaleString('en-US')} values (intervals × series × breakdown values); at most ${ANALYTICS_LIMITS.trendCells.toLocaleString('en-US')}: lower the breakdown limit, the series or the number of intervals.`,
    );
  }
  const plain = input.series.filter((s) => !(s.math in ACTIVE_DAYS)).map((s) => s.index);
  const values: SeriesValues[] = input.series.map(() => new Map());
  const add = (rows: TrendRow[], indexes: readonly number[]) => {
    for (const row of rows) {
      const si = indexes[Number(row.si)]!;
      const kind = Number(row.kind);
      const key =
        kind === 0
          ? `v:${Array.isArray(row.bval) ? JSON.stringify(row.bval) : (row.bval ?? '')}`
          : kind === 1
            ? 'none'
            : 'other';
      const map = values[si]!;
      let entry = map.get(key);
      if (!entry) {
        entry = { kind, value: row.bval, rank: row.rn === null ? null : Number(row.rn), byBucket: new Map() };
        map.set(key, entry);
      }
      const v = row[`a${Number(row.si)}`];
      entry.byBucket.set(Number(row.bucket), v === null || v === undefined ? 0 : Number(v));
    }
  };
  if (plain.length > 0) {
    const q = trendQuery(input, period, plain);
    add(await ctx.db.all<TrendRow>(q.sql, q.params), plain);
  }
  for (const s of input.series) {
    if (!(s.math in ACTIVE_DAYS)) continue;
    const q = activeQuery(input, period, s.index, ACTIVE_DAYS[s.math as keyof typeof ACTIVE_DAYS], buckets);
    add(await ctx.db.all<TrendRow>(q.sql, q.params), [s.index]);
  }
  return { buckets, values, from: period.from, to: period.toExclusive - 1 };
}

/**
 * The edges of each binned part of the breakdown, from its values' range in `period` (the
 * current one: a compared period keeps the same bins, as the production service does).
 */
async function withBinEdges(ctx: QueryContext, input: TrendQueryInput, period: PeriodQuery): Promise<Breakdown | null> {
  const b = input.breakdown;
  if (!b?.parts.some((p) => p.bins)) return b;
  const q = binRangeQuery(input, period);
  const [row] = await ctx.db.all<Record<string, number | null>>(q.sql, q.params);
  return withEdges(b, row);
}

/** Computes a trend (docs/api.md, "Trends"); throws AnalyticsParamError for a 400. */
export async function computeTrends(params: TrendParams, ctx: QueryContext): Promise<TrendSeries[]> {
  const split = cohortSplitOf(params, ctx.cohorts);
  if (split) {
    const runs: TrendSeries[][] = [];
    for (const c of split) {
      const run = await computeTrends(restrictedTo(params, c), ctx);
      runs.push(
        run.map((s) => ({
          ...s,
          label: c.label,
          breakdown_value: c.value,
          filter: { ...s.filter, breakdown: params.breakdown ?? null, breakdown_type: 'cohort' },
        })),
      );
    }
    return interleave(runs);
  }
  const series = seriesSpecs(params);
  const groupTypes = await groupTypesFor(ctx);
  const formulas = await validate(params, series, ctx, groupTypes);
  const range = await resolveDateRange(params, ctx, params.interval);
  const aggregate = AGGREGATED_DISPLAYS.includes(params.display);
  const breakdown = breakdownsOf(params, groupTypes);
  const input: TrendQueryInput = {
    project: ctx.project,
    series,
    properties: params.properties,
    filterTestAccounts: params.filter_test_accounts,
    groupTypes,
    groupIndex: aggregationOf(params, groupTypes),
    breakdown,
    breakdownLimit: params.breakdown_limit,
    materialized: await materializedFor(ctx),
    env: envOf(ctx),
  };
  const periods = [{ from: range.from, toExclusive: range.to + 1 }];
  if (params.compare) {
    const tz = range.timeZone;
    const count = bucketStarts(toWall(range.from, tz), toWall(range.to, tz), params.interval, range.weekStart).length;
    periods.push(previousRange(range, params.compare_to, params.interval, count));
  }
  const results: PeriodResult[] = [];
  for (const p of periods) if (p.toExclusive <= p.from) p.toExclusive = p.from + 1;
  input.breakdown = await withBinEdges(ctx, input, { ...periods[0]!, interval: params.interval, aggregate });
  for (const p of periods) {
    results.push(await runPeriod(ctx, input, { ...p, interval: params.interval, aggregate }, params.interval));
  }
  // The series and filters are not echoed: repeated in every series they made the response
  // grow with the square of the series count.
  const filter = {
    filter_test_accounts: params.filter_test_accounts ?? false,
    date_from: formatInstant(range.from, range.timeZone),
    date_to: formatInstant(range.to, range.timeZone),
    interval: params.interval,
    display: params.display,
    breakdown: params.breakdown ?? null,
    breakdown_type: params.breakdown ? params.breakdown_type : null,
    compare: params.compare ?? false,
    formula: params.formula ?? null,
    ...(breakdown?.multi ? { breakdowns: params.breakdowns } : {}),
  };
  return results.flatMap((result, i) =>
    assembleSeries({
      result,
      series,
      formulas,
      interval: params.interval,
      aggregate,
      cumulative: params.display === 'ActionsLineGraphCumulative',
      breakdown: breakdown !== null,
      breakdownParts: breakdown?.multi ? breakdown.parts.length : 0,
      compareLabel: params.compare ? (i === 0 ? 'current' : 'previous') : null,
      filter,
    }),
  );
}
