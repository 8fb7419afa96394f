import type {
  FunnelCorrelationBody,
  FunnelCorrelationEntry,
  FunnelCorrelationParams,
} from '../../../src/contract/index.ts';
import { FUNNEL_CORRELATION_LIMITS } from '../../../src/contract/index.ts';
import { AnalyticsParamError } from '../errors.ts';
import { countedPersons, prepare } from './funnels.ts';
import { propertyText } from '../query/properties.ts';
import type { QueryContext } from '../types.ts';

/**
 * Funnel correlation: which events (or person property values) the persons who converted did
 * more, or less, than those who dropped off. The persons are the funnel's own (everyone who
 * entered its first step, counted as the steps result counts them); a person "has" an event
 * when they did it in the funnel's date range (the funnel's own step events left out), a
 * property value when their person property has it. For each, with S successes and F failures
 * in all and s, f of them having it, the odds ratio with a prior of one is
 * ((s + 1) / (S − s + 1)) / ((f + 1) / (F − f + 1)); the ten highest above 1 (success) and the
 * ten lowest below 1 (failure) are returned.
 */

export interface CorrelationCounts {
  name: string;
  properties: Record<string, unknown>;
  s: number;
  f: number;
}

/** Odds ratio with a prior of one success and one failure on each side (never divides by zero). */
export const oddsRatio = (s: number, f: number, S: number, F: number) =>
  (s + 1) / (S - s + 1) / ((f + 1) / (F - f + 1));

/** The entries of counts, ranked: successes first (highest ratio), then failures (lowest); ties by name. */
export function rankCorrelations(counts: readonly CorrelationCounts[], S: number, F: number): FunnelCorrelationBody {
  const entries = counts.map((c): FunnelCorrelationEntry => {
    const odds = oddsRatio(c.s, c.f, S, F);
    return {
      event: { event: c.name, properties: c.properties, elements: [] },
      success_count: c.s,
      failure_count: c.f,
      odds_ratio: odds,
      correlation_type: odds > 1 ? 'success' : 'failure',
    };
  });
  const byName = (a: FunnelCorrelationEntry, b: FunnelCorrelationEntry) =>
    a.event.event < b.event.event ? -1 : a.event.event > b.event.event ? 1 : 0;
  const success = entries.filter((e) => e.odds_ratio > 1).sort((a, b) => b.odds_ratio - a.odds_ratio || byName(a, b));
  const failure = entries.filter((e) => e.odds_ratio < 1).sort((a, b) => a.odds_ratio - b.odds_ratio || byName(a, b));
  return {
    events: [
      ...success.slice(0, FUNNEL_CORRELATION_LIMITS.results),
      ...failure.slice(0, FUNNEL_CORRELATION_LIMITS.results),
    ],
    skewed: Math.min(S, F) * 10 < Math.max(S, F),
  };
}

export async function computeFunnelCorrelation(
  p: FunnelCorrelationParams,
  ctx: QueryContext,
): Promise<FunnelCorrelationBody> {
  // By groups the counted are groups: their events correlate, persons' properties do not describe them.
  if (
    p.funnel_correlation_type === 'properties' &&
    p.aggregation_group_type_index !== null &&
    p.aggregation_group_type_index !== undefined
  ) {
    throw new AnalyticsParamError(
      'aggregation_group_type_index',
      'A funnel aggregated by groups correlates events only: person properties do not describe a group.',
    );
  }
  const steps = { ...p, breakdown: null, funnel_viz_type: 'steps' as const };
  const prep = await prepare(steps, ctx, { everyEvent: true });
  const params = prep.evParams();
  // Each counted person and whether they converted (funnel-pass.ts), handed back to SQL.
  const counted = await countedPersons(ctx, prep);
  const persons = Array.from(counted.person.subarray(0, counted.count));
  const converted = Array.from(counted.reached.subarray(0, counted.count), (n) => n >= counted.steps);
  const outcome = `outcome AS (SELECT unnest(from_json(${params.add(JSON.stringify(persons))}::JSON, '["INTEGER"]')) AS person_id,
    unnest(from_json(${params.add(JSON.stringify(converted))}::JSON, '["BOOLEAN"]')) AS success)`;
  let seen: string;
  if (p.funnel_correlation_type === 'properties') {
    const team = params.add(ctx.project.id);
    seen = (p.funnel_correlation_names ?? [])
      .map(
        (
          name,
        ) => `SELECT o.person_id, ${params.add(name)}::VARCHAR AS name, ${propertyText(params, 'person', name)} AS value
      FROM outcome o JOIN person_keys k ON k.team_id = ${team} AND k.key = o.person_id
      LEFT JOIN persons p ON p.team_id = ${team} AND p.id = k.person_id`,
      )
      .join('\nUNION ALL ');
    seen = `seen AS (SELECT DISTINCT person_id, name, value FROM (${seen}) WHERE value IS NOT NULL)`;
  } else {
    const excluded = [
      ...prep.steps.filter((s) => s.id !== null).map((s) => String(s.id)),
      ...(p.funnel_correlation_exclude_event_names ?? []),
    ];
    seen = `seen AS (SELECT DISTINCT ev.person_id, ev.event AS name, NULL::VARCHAR AS value FROM ev
      WHERE ev.event NOT IN (SELECT unnest(from_json(${params.add(JSON.stringify(excluded))}::JSON, '["VARCHAR"]'))))`;
  }
  const rows = await ctx.db.all<{ total: boolean; name: string | null; value: string | null; s: number; f: number }>(
    `WITH ${prep.ev},
    ${outcome},
    ${seen}
    SELECT true AS total, NULL::VARCHAR AS name, NULL::VARCHAR AS value,
      (count(*) FILTER (WHERE success))::INTEGER AS s, (count(*) FILTER (WHERE NOT success))::INTEGER AS f FROM outcome
    UNION ALL
    SELECT false, s.name, s.value, (count(*) FILTER (WHERE o.success))::INTEGER, (count(*) FILTER (WHERE NOT o.success))::INTEGER
    FROM seen s JOIN outcome o USING (person_id) GROUP BY s.name, s.value`,
    params.values,
  );
  const total = rows.find((r) => r.total) ?? { s: 0, f: 0 };
  const counts = rows
    .filter((r) => !r.total)
    .map((r): CorrelationCounts =>
      p.funnel_correlation_type === 'properties'
        ? { name: `${r.name}::${r.value}`, properties: { [r.name!]: r.value }, s: r.s, f: r.f }
        : { name: r.name!, properties: {}, s: r.s, f: r.f },
    );
  return rankCorrelations(counts, total.s, total.f);
}
