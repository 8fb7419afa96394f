import type {
  FunnelParamsInput, PathParamsInput, RetentionParamsInput, TrendParamsInput,
} from '@/contract/analytics-params';

/**
 * The builders' URL search, as the routes see it: only the keys of the kind's parameters,
 * values not yet checked. Kept free of the contract's code (types only) because route search
 * schemas load with the app's entry; the builder page checks the values with the contract's
 * schemas (builder-state.ts) when it loads.
 */

export type BuilderKind = 'trends' | 'funnels' | 'retention' | 'paths';
export const BUILDER_KINDS: readonly BuilderKind[] = ['trends', 'funnels', 'retention', 'paths'];

export interface BuilderParams {
  trends: TrendParamsInput;
  funnels: FunnelParamsInput;
  retention: RetentionParamsInput;
  paths: PathParamsInput;
}

/** Every key unchecked: what a route's validateSearch gives before the page checks it. */
export type RawSearch<K extends BuilderKind> = { [P in keyof BuilderParams[K]]?: unknown };

const SERIES_KEYS = [
  'events', 'actions', 'properties', 'filter_test_accounts', 'date_from', 'date_to', 'interval',
  'breakdown', 'breakdown_type', 'aggregation_group_type_index', 'breakdown_limit',
] as const;

/** The parameter names of each kind (a test checks them against the contract's schemas). */
export const SEARCH_KEYS: { [K in BuilderKind]: readonly (keyof BuilderParams[K] & string)[] } = {
  trends: [...SERIES_KEYS, 'compare', 'compare_to', 'display', 'formula'],
  funnels: [
    ...SERIES_KEYS, 'funnel_window_interval', 'funnel_window_interval_type', 'funnel_window_interval_unit',
    'funnel_window_days', 'funnel_viz_type', 'funnel_order_type', 'exclusions',
  ],
  retention: [
    'target_entity', 'returning_entity', 'retention_type', 'period', 'total_intervals', 'date_from', 'date_to',
    'properties', 'filter_test_accounts', 'aggregation_group_type_index',
  ],
  paths: [
    'include_event_types', 'start_point', 'end_point', 'step_limit', 'edge_limit', 'exclude_events',
    'path_replacements', 'local_path_cleaning_filters', 'date_from', 'date_to', 'properties', 'filter_test_accounts',
  ],
};

/** A route's validateSearch: keeps the kind's keys (values as they came), drops everything else. */
export function pickSearch<K extends BuilderKind>(kind: K) {
  const keys: readonly string[] = SEARCH_KEYS[kind];
  return (search: Record<string, unknown>): RawSearch<K> => {
    const out: Record<string, unknown> = {};
    for (const key of keys) if (search[key] !== undefined) out[key] = search[key];
    return out as RawSearch<K>;
  };
}

/** Every builder key of every kind: the edit route's search (the kind is the saved insight's). */
export type AnySearch = RawSearch<'trends'> & RawSearch<'funnels'> & RawSearch<'retention'> & RawSearch<'paths'>;
const ALL_KEYS = [...new Set(BUILDER_KINDS.flatMap((k) => SEARCH_KEYS[k] as readonly string[]))];
export function pickAnySearch(search: Record<string, unknown>): AnySearch {
  const out: Record<string, unknown> = {};
  for (const key of ALL_KEYS) if (search[key] !== undefined) out[key] = search[key];
  return out as AnySearch;
}
