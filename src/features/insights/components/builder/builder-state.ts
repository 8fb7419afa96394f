import type { z } from '@/contract/z';
import {
  funnelParamsSchema,
  pathParamsSchema,
  retentionParamsSchema,
  trendParamsSchema,
} from '@/contract/analytics-params';
import type { InsightKind } from '@/contract/insight-kinds';
import type { BuilderKind, BuilderParams } from './builder-search';

/**
 * The builder's state is the contract's input of the kind's parameters, as the URL holds it.
 * Reading it checks it with the contract's schema; a value the schema refuses falls back to that
 * key's default (and anything still wrong to the kind's defaults), so a bad URL never crashes.
 */

const SERIES_KEYS = [
  'events',
  'actions',
  'properties',
  'filter_test_accounts',
  'date_from',
  'date_to',
  'interval',
  'breakdown',
  'breakdown_type',
  'breakdown_group_type_index',
  'aggregation_group_type_index',
  'breakdown_limit',
  'breakdowns',
  'breakdown_histogram_bin_count',
] as const;

/** The parameter names of each kind (a test checks them against the contract's schemas). */
export const SEARCH_KEYS: { [K in BuilderKind]: readonly (keyof BuilderParams[K] & string)[] } = {
  trends: [...SERIES_KEYS, 'compare', 'compare_to', 'display', 'formula', 'formulas'],
  funnels: [
    ...SERIES_KEYS,
    'funnel_window_interval',
    'funnel_window_interval_type',
    'funnel_window_interval_unit',
    'funnel_window_days',
    'funnel_viz_type',
    'funnel_order_type',
    'exclusions',
    'funnel_from_step',
    'funnel_to_step',
  ],
  retention: [
    'target_entity',
    'returning_entity',
    'retention_type',
    'period',
    'total_intervals',
    'date_from',
    'date_to',
    'properties',
    'filter_test_accounts',
    'aggregation_group_type_index',
    'breakdown',
    'breakdown_type',
    'breakdown_group_type_index',
    'breakdown_limit',
    'breakdowns',
    'breakdown_histogram_bin_count',
  ],
  paths: [
    'include_event_types',
    'paths_hogql_expression',
    'start_point',
    'end_point',
    'step_limit',
    'edge_limit',
    'exclude_events',
    'path_replacements',
    'local_path_cleaning_filters',
    'date_from',
    'date_to',
    'properties',
    'filter_test_accounts',
  ],
};
export const PARAM_SCHEMAS = {
  trends: trendParamsSchema,
  funnels: funnelParamsSchema,
  retention: retentionParamsSchema,
  paths: pathParamsSchema,
} satisfies { [K in BuilderKind]: z.ZodMiniType };

const pageview = { id: '$pageview', name: '$pageview', type: 'events' } as const;

export const BUILDER_DEFAULTS: { [K in BuilderKind]: BuilderParams[K] } = {
  trends: {
    events: [{ ...pageview, math: 'total' }],
    date_from: '-7d',
    interval: 'day',
    display: 'ActionsLineGraph',
  },
  funnels: {
    events: [
      { ...pageview, order: 0 },
      { id: 'user signed up', name: 'user signed up', type: 'events', order: 1 },
    ],
    date_from: '-30d',
    funnel_window_interval: 14,
    funnel_window_interval_unit: 'day',
    funnel_order_type: 'ordered',
    funnel_viz_type: 'steps',
  },
  retention: {
    target_entity: { ...pageview },
    returning_entity: { ...pageview },
    retention_type: 'retention_first_time',
    period: 'Week',
    total_intervals: 8,
  },
  paths: {
    include_event_types: ['$pageview'],
    step_limit: 5,
    date_from: '-7d',
  },
};

export const INSIGHT_KIND_OF: Record<BuilderKind, InsightKind> = {
  trends: 'TRENDS',
  funnels: 'FUNNELS',
  retention: 'RETENTION',
  paths: 'PATHS',
};
export const BUILDER_KIND_OF: Record<InsightKind, BuilderKind> = {
  TRENDS: 'trends',
  FUNNELS: 'funnels',
  RETENTION: 'retention',
  PATHS: 'paths',
};

/** A zod issue's path as the API's `attr`: `['events', 0, 'math']` → `events__0__math`. */
export const attrOf = (path: readonly PropertyKey[]) => path.map(String).join('__');

/** The contract's complaints about a state, by attr (the first message of each field). */
export function stateIssues(kind: BuilderKind, state: unknown): ReadonlyMap<string, string> {
  // An edit checks its state, then renders it and checks it again: states are values, never
  // mutated, so the answer is kept per state object.
  const cacheable = typeof state === 'object' && state !== null;
  const hit = cacheable ? checked.get(state) : undefined;
  if (hit?.kind === kind) return hit.issues;
  const result = PARAM_SCHEMAS[kind].safeParse(state);
  // Every valid state answers the same empty map: what depends on the issues stays put.
  let issues: ReadonlyMap<string, string> = NO_ISSUES;
  if (!result.success) {
    const found = new Map<string, string>();
    for (const issue of result.error.issues) {
      const attr = attrOf(issue.path);
      if (!found.has(attr)) found.set(attr, issue.message);
    }
    issues = found;
  }
  if (cacheable) checked.set(state, { kind, issues });
  return issues;
}
const NO_ISSUES: ReadonlyMap<string, string> = new Map();
const checked = new WeakMap<object, { kind: BuilderKind; issues: ReadonlyMap<string, string> }>();

function pick(kind: BuilderKind, source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SEARCH_KEYS[kind] as readonly string[])
    if (source[key] !== undefined && source[key] !== null) out[key] = source[key];
  return out;
}

/**
 * The state in `source` (a URL search or a saved insight's filters): the kind's keys only,
 * checked by the contract; refused keys fall back to their defaults. Empty → the defaults.
 */
export function readBuilderState<K extends BuilderKind>(
  kind: K,
  source: Record<string, unknown> | null | undefined,
): BuilderParams[K] {
  const defaults = BUILDER_DEFAULTS[kind] as Record<string, unknown>;
  const candidate = pick(kind, source ?? {});
  if (Object.keys(candidate).length === 0) return BUILDER_DEFAULTS[kind];
  // Legacy flat filter lists become a group (what the filter editor edits).
  if (Array.isArray(candidate.properties)) candidate.properties = { type: 'AND', values: candidate.properties };
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const result = PARAM_SCHEMAS[kind].safeParse(candidate);
    if (result.success) return candidate as BuilderParams[K];
    const keys = new Set(result.error.issues.map((issue) => String(issue.path[0] ?? '')));
    let changed = false;
    for (const key of keys) {
      if (key === '' || !(key in candidate || key in defaults)) continue;
      if (key in defaults) {
        if (candidate[key] === defaults[key]) continue;
        candidate[key] = defaults[key];
      } else {
        delete candidate[key];
      }
      changed = true;
    }
    if (!changed) break;
  }
  return BUILDER_DEFAULTS[kind];
}

/** A saved insight's `filters` for this state. */
export function filtersOf(kind: BuilderKind, state: BuilderParams[BuilderKind]): Record<string, unknown> {
  return { insight: INSIGHT_KIND_OF[kind], ...state };
}

/** Equal as JSON values (key order aside; undefined keys count as absent). */
export function sameState(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([x], [y]) => (x < y ? -1 : 1)),
        )
      : v,
  );
}
