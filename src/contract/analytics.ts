import { z } from './z';
import { funnelParamsSchema, pathParamsSchema, retentionParamsSchema, trendParamsSchema } from './analytics-params';
import { exceedsJsonDepth } from './json-depth';

export * from './analytics-params';
export * from './analytics-results';

/**
 * The GET forms of trend/, funnel/, retention/ and path/ take the same parameters as the POST
 * bodies, in the query string. Arrays and objects arrive JSON-encoded (`events=[...]`),
 * booleans as `true`/`false`, numbers as text. `decodeAnalyticsQuery` turns such a record into
 * the body's shape; text that is not valid JSON is left as it is, so the params schema rejects
 * it with a path naming the parameter (`attr` = `events`), exactly as for a body.
 */
export const JSON_QUERY_PARAMS = [
  'events',
  'actions',
  'properties',
  'exclusions',
  'target_entity',
  'returning_entity',
  'include_event_types',
  'exclude_events',
  'local_path_cleaning_filters',
  'breakdowns',
] as const;
export const BOOLEAN_QUERY_PARAMS = ['filter_test_accounts', 'compare', 'path_replacements'] as const;
export const NUMBER_QUERY_PARAMS = [
  'breakdown_limit',
  'aggregation_group_type_index',
  'breakdown_group_type_index',
  'funnel_window_interval',
  'funnel_window_days',
  'breakdown_histogram_bin_count',
  'total_intervals',
  'step_limit',
  'edge_limit',
] as const;

const has = (list: readonly string[], key: string) => list.includes(key);

function decodeValue(key: string, raw: string): unknown {
  if (has(JSON_QUERY_PARAMS, key) || (key === 'breakdown' && /^\s*\[/.test(raw))) {
    // Too deep is left as text too: the schema's type error names the parameter.
    try {
      const value: unknown = JSON.parse(raw);
      return exceedsJsonDepth(value) ? raw : value;
    } catch {
      return raw;
    }
  }
  if (has(BOOLEAN_QUERY_PARAMS, key)) {
    const t = raw.toLowerCase();
    return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : raw;
  }
  if (has(NUMBER_QUERY_PARAMS, key)) return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
  return raw;
}

export type QueryRecord = Record<string, string | readonly string[] | undefined>;

/** A query-string record (repeated keys: the last wins) → the params' JSON shape. */
export function decodeAnalyticsQuery(query: unknown): unknown {
  if (typeof query !== 'object' || query === null || query instanceof Array) return query;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query as QueryRecord)) {
    const raw = Array.isArray(value) ? value[value.length - 1] : value;
    if (raw === undefined) continue;
    out[key] = typeof raw === 'string' ? decodeValue(key, raw) : raw;
  }
  return out;
}

/** Params → query-string record, the inverse of decodeAnalyticsQuery (undefined and null left out). */
export function encodeAnalyticsQuery(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return out;
}

/** The query-string forms: same output types and issue paths as the body schemas. */
export const trendQuerySchema = z.pipe(z.transform(decodeAnalyticsQuery), trendParamsSchema);
export const funnelQuerySchema = z.pipe(z.transform(decodeAnalyticsQuery), funnelParamsSchema);
export const retentionQuerySchema = z.pipe(z.transform(decodeAnalyticsQuery), retentionParamsSchema);
export const pathQuerySchema = z.pipe(z.transform(decodeAnalyticsQuery), pathParamsSchema);
