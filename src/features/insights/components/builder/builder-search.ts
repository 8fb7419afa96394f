import type {
  FunnelParamsInput,
  PathParamsInput,
  RetentionParamsInput,
  TrendParamsInput,
} from '@/contract/analytics-params';

/**
 * The builders' URL search, as the routes see it: typed as the kind's parameters, values not
 * yet checked. Kept free of the contract's code (types only) because route search
 * schemas load with the app's entry; the builder page checks the values with the contract's
 * schemas (builder-state.ts) when it loads.
 */

export const BUILDER_KINDS = ['trends', 'funnels', 'retention', 'paths'] as const;
export type BuilderKind = (typeof BUILDER_KINDS)[number];
export const isBuilderKind = (value: string): value is BuilderKind =>
  (BUILDER_KINDS as readonly string[]).includes(value);

/** The breadcrumb of each new builder. */
export const NEW_BUILDER_CRUMBS: Record<BuilderKind, string> = {
  trends: 'New trend',
  funnels: 'New funnel',
  retention: 'New retention',
  paths: 'New paths',
};

export interface BuilderParams {
  trends: TrendParamsInput;
  funnels: FunnelParamsInput;
  retention: RetentionParamsInput;
  paths: PathParamsInput;
}

/** Every key unchecked: what a route's validateSearch gives before the page checks it. */
export type RawSearch<K extends BuilderKind> = { [P in keyof BuilderParams[K]]?: unknown };

/**
 * A route's validateSearch: the search as it came (values unchecked). Nothing more here, so the
 * initial JavaScript holds no parameter lists; the page keeps only the kind's keys
 * (builder-state.ts: SEARCH_KEYS) and checks them.
 */
export function pickSearch<K extends BuilderKind>(_kind: K) {
  return (search: Record<string, unknown>): RawSearch<K> => search as RawSearch<K>;
}

/** Every builder key of every kind: the edit route's search (the kind is the saved insight's). */
export type AnySearch = RawSearch<'trends'> & RawSearch<'funnels'> & RawSearch<'retention'> & RawSearch<'paths'>;
export function pickAnySearch(search: Record<string, unknown>): AnySearch {
  return search as AnySearch;
}
