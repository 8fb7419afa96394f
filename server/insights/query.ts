import type { z } from '../../src/contract/z';
import {
  formulasWithPath,
  funnelParamsSchema,
  INSIGHT_KINDS,
  orderedEntities,
  type Entity,
  type InsightKind,
  pathParamsSchema,
  retentionParamsSchema,
  trendParamsSchema,
  type FunnelParams,
  type PathParams,
  type RetentionParams,
  type TrendParams,
} from '../../src/contract/index.ts';
import { formulaOf, FormulaError } from '../analytics/engines/formula.ts';
import { InputError } from '../domain-errors.ts';

/**
 * An insight's analysis in its two wire forms (docs/api.md, "Insights"):
 * - `filters`, the legacy form: `{insight: 'TRENDS', events, date_from, …}`: the analysis
 *   endpoints' parameters plus `insight`;
 * - `query`, a query node with PostHog's names: `{kind: 'TrendsQuery', series, dateRange, …}`,
 *   possibly wrapped in `{kind: 'InsightVizNode', source}`.
 * Either is read into one {@link Analysis} (validated by the contract's parameter schemas), and
 * both are written from it, so they always describe the same analysis. Pure functions.
 */

export { INSIGHT_KINDS, type InsightKind };

export type Analysis =
  | { kind: 'TRENDS'; params: TrendParams }
  | { kind: 'FUNNELS'; params: FunnelParams }
  | { kind: 'RETENTION'; params: RetentionParams }
  | { kind: 'PATHS'; params: PathParams };

export const QUERY_KINDS: Record<InsightKind, string> = {
  TRENDS: 'TrendsQuery',
  FUNNELS: 'FunnelsQuery',
  RETENTION: 'RetentionQuery',
  PATHS: 'PathsQuery',
};
const KIND_OF_QUERY = new Map(Object.entries(QUERY_KINDS).map(([k, q]) => [q, k as InsightKind]));

const SCHEMAS = {
  TRENDS: trendParamsSchema,
  FUNNELS: funnelParamsSchema,
  RETENTION: retentionParamsSchema,
  PATHS: pathParamsSchema,
} as const satisfies Record<InsightKind, z.ZodMiniType>;

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A 400 naming the field (`query__series__0__math`): the route turns it into the API's error. */
export class InsightInputError extends InputError {
  declare readonly attr: string;
  constructor(attr: string, message: string, code = 'invalid_input') {
    super(attr, message, code);
  }
}

/** Drops undefined and null members (neither form writes what is not set). */
function compact(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));
}
// ---------------------------------------------------------------------------------------------
// Parameter names ↔ query-node paths
// ---------------------------------------------------------------------------------------------

/**
 * Where each parameter lives in a query node. Entries of `events`/`actions` and exclusions are
 * handled apart (their items move into `series` / rename their fields).
 */
const PARAM_PATHS: Record<string, readonly string[]> = {
  date_from: ['dateRange', 'date_from'],
  date_to: ['dateRange', 'date_to'],
  interval: ['interval'],
  properties: ['properties'],
  filter_test_accounts: ['filterTestAccounts'],
  aggregation_group_type_index: ['aggregation_group_type_index'],
  breakdown: ['breakdownFilter', 'breakdown'],
  breakdown_type: ['breakdownFilter', 'breakdown_type'],
  breakdown_group_type_index: ['breakdownFilter', 'breakdown_group_type_index'],
  breakdown_limit: ['breakdownFilter', 'breakdown_limit'],
  breakdowns: ['breakdownFilter', 'breakdowns'],
  breakdown_histogram_bin_count: ['breakdownFilter', 'breakdown_histogram_bin_count'],
  display: ['trendsFilter', 'display'],
  formula: ['trendsFilter', 'formula'],
  formulas: ['trendsFilter', 'formulas'],
  compare: ['compareFilter', 'compare'],
  compare_to: ['compareFilter', 'compare_to'],
  funnel_order_type: ['funnelsFilter', 'funnelOrderType'],
  funnel_viz_type: ['funnelsFilter', 'funnelVizType'],
  funnel_window_interval: ['funnelsFilter', 'funnelWindowInterval'],
  funnel_window_interval_unit: ['funnelsFilter', 'funnelWindowIntervalUnit'],
  funnel_window_interval_type: ['funnelsFilter', 'funnelWindowIntervalUnit'],
  funnel_window_days: ['funnelsFilter', 'funnelWindowInterval'],
  exclusions: ['funnelsFilter', 'exclusions'],
  funnel_from_step: ['funnelsFilter', 'funnelFromStep'],
  funnel_to_step: ['funnelsFilter', 'funnelToStep'],
  target_entity: ['retentionFilter', 'targetEntity'],
  returning_entity: ['retentionFilter', 'returningEntity'],
  retention_type: ['retentionFilter', 'retentionType'],
  period: ['retentionFilter', 'period'],
  total_intervals: ['retentionFilter', 'totalIntervals'],
  include_event_types: ['pathsFilter', 'includeEventTypes'],
  paths_hogql_expression: ['pathsFilter', 'pathsHogQLExpression'],
  start_point: ['pathsFilter', 'startPoint'],
  end_point: ['pathsFilter', 'endPoint'],
  step_limit: ['pathsFilter', 'stepLimit'],
  exclude_events: ['pathsFilter', 'excludeEvents'],
  local_path_cleaning_filters: ['pathsFilter', 'localPathCleaningFilters'],
  path_replacements: ['pathsFilter', 'pathReplacements'],
  edge_limit: ['pathsFilter', 'edgeLimit'],
};
const EXCLUSION_FIELDS: Record<string, string> = { funnel_from_step: 'funnelFromStep', funnel_to_step: 'funnelToStep' };

const get = (o: Json, path: readonly string[]): unknown =>
  path.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), o);
function set(o: Json, path: readonly string[], value: unknown): void {
  if (value === undefined || value === null) return;
  let at = o;
  for (const k of path.slice(0, -1)) {
    if (!isRecord(at[k])) at[k] = {};
    at = at[k] as Json;
  }
  at[path[path.length - 1]!] = value;
}

// ---------------------------------------------------------------------------------------------
// Series entries
// ---------------------------------------------------------------------------------------------

const ENTITY_FIELDS = ['name', 'custom_name', 'math', 'math_property', 'math_hogql', 'properties'] as const;

/** An `events`/`actions` entry → an EventsNode / ActionsNode. */
function entityToNode(e: Json): Json {
  const rest = Object.fromEntries(ENTITY_FIELDS.map((k) => [k, e[k]]));
  return e.type === 'actions'
    ? compact({ kind: 'ActionsNode', id: e.id, ...rest })
    : compact({ kind: 'EventsNode', event: e.id ?? null, ...rest });
}

/** An EventsNode / ActionsNode → an `events`/`actions` entry (anything else is left for the schema). */
function nodeToEntity(n: unknown, order: number): { list: 'events' | 'actions'; entity: unknown } {
  if (!isRecord(n)) return { list: 'events', entity: n };
  const rest = Object.fromEntries(ENTITY_FIELDS.map((k) => [k, n[k]]));
  if (n.kind === 'ActionsNode')
    return { list: 'actions', entity: compact({ id: n.id, type: 'actions', order, ...rest }) };
  return { list: 'events', entity: { ...compact({ type: 'events', order, ...rest }), id: n.event ?? null } };
}

/** An exclusion `{id, type, name, funnel_from_step, funnel_to_step}` ↔ an EventsNode with funnelFromStep/ToStep. */
function exclusionToNode(x: Json): Json {
  const node = entityToNode({ ...x, math: undefined });
  return compact({ ...node, funnelFromStep: x.funnel_from_step, funnelToStep: x.funnel_to_step });
}
function nodeToExclusion(n: unknown): unknown {
  if (!isRecord(n)) return n;
  const { entity } = nodeToEntity(n, 0);
  const e = { ...(entity as Json) };
  delete e.order;
  delete e.math;
  return compact({ ...e, funnel_from_step: n.funnelFromStep, funnel_to_step: n.funnelToStep });
}

// ---------------------------------------------------------------------------------------------
// Parameters → query node, query node → parameters
// ---------------------------------------------------------------------------------------------

/** The query node of an analysis (its parameters as parsed: every default filled in). */
export function paramsToQuery(analysis: Analysis): Json {
  const p = analysis.params as Json;
  const node: Json = { kind: QUERY_KINDS[analysis.kind] };
  if (analysis.kind === 'TRENDS' || analysis.kind === 'FUNNELS') {
    const series = [...((p.events as Json[] | undefined) ?? []), ...((p.actions as Json[] | undefined) ?? [])]
      .map((e, i) => ({ e, i }))
      .sort(
        (a, b) => ((a.e.order as number | undefined) ?? a.i) - ((b.e.order as number | undefined) ?? b.i) || a.i - b.i,
      )
      .map(({ e }) => entityToNode(e));
    node.series = series;
  }
  for (const [param, value] of Object.entries(p)) {
    const path = PARAM_PATHS[param];
    if (!path || value === undefined || value === null) continue;
    if (param === 'exclusions') set(node, path, (value as Json[]).map(exclusionToNode));
    else if (param === 'funnel_window_days' && p.funnel_window_interval != null) continue;
    else set(node, path, value);
  }
  return node;
}

/** Where a parameter path came from in the query node: for naming the field of an error. */
type PathMap = (paramPath: readonly PropertyKey[]) => PropertyKey[];

/** A query node's raw parameters (not validated yet) and how to name its fields in an error. */
export function queryToRawParams(node: Json): { params: Json; queryPath: PathMap } {
  const params: Json = {};
  const seriesIndex: Record<'events' | 'actions', number[]> = { events: [], actions: [] };
  const series = node.series;
  if (Array.isArray(series)) {
    series.forEach((n, i) => {
      const { list, entity } = nodeToEntity(n, i);
      ((params[list] ??= []) as unknown[]).push(entity);
      seriesIndex[list].push(i);
    });
  } else if (series !== undefined) {
    params.events = series; // the schema names it: not a list
  }
  const seen = new Set<string>();
  for (const [param, path] of Object.entries(PARAM_PATHS)) {
    const key = path.join('.');
    if (seen.has(key)) continue; // aliases (funnel_window_days, _type) read nothing of their own
    if (param === 'funnel_window_days' || param === 'funnel_window_interval_type') continue;
    seen.add(key);
    const value = get(node, path);
    if (value === undefined) continue;
    params[param] = param === 'exclusions' && Array.isArray(value) ? value.map(nodeToExclusion) : value;
  }
  const queryPath: PathMap = (paramPath) => {
    const [head, index, ...rest] = paramPath;
    if ((head === 'events' || head === 'actions') && typeof index === 'number') {
      const at = seriesIndex[head][index] ?? index;
      const field = rest[0] === 'id' ? [head === 'events' ? 'event' : 'id', ...rest.slice(1)] : rest;
      return ['series', at, ...field];
    }
    if (head === 'events' || head === 'actions') return ['series', ...(index === undefined ? [] : [index]), ...rest];
    const path = typeof head === 'string' ? PARAM_PATHS[head] : undefined;
    if (!path) return [...paramPath];
    if (head === 'exclusions' && typeof index === 'number') {
      const field =
        typeof rest[0] === 'string' ? (EXCLUSION_FIELDS[rest[0]] ?? (rest[0] === 'id' ? 'event' : rest[0])) : undefined;
      return [...path, index, ...(field === undefined ? [] : [field]), ...rest.slice(1)];
    }
    return [...path, ...(index === undefined ? [] : [index]), ...rest];
  };
  return { params, queryPath };
}

/** The legacy filters of an analysis: its parameters with `insight`. */
export function paramsToFilters(analysis: Analysis): Json {
  return compact({ insight: analysis.kind, ...(analysis.params as Json) });
}

// ---------------------------------------------------------------------------------------------
// Reading either form
// ---------------------------------------------------------------------------------------------

const attrOf = (path: readonly PropertyKey[]) => path.map(String).join('__');

/** How a form is read: `write`, a body being saved, also gets the checks the schema cannot make (its formula). */
interface ReadMode {
  write?: boolean;
}

function parseParams(kind: InsightKind, raw: Json, fieldPath: PathMap, prefix: string, mode: ReadMode): Analysis {
  const result = SCHEMAS[kind].safeParse(raw, { reportInput: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new InsightInputError(
      attrOf([prefix, ...fieldPath(issue.path)]),
      issue.message,
      issue.code === 'too_big' ? 'max_length' : issue.code === 'invalid_value' ? 'invalid_choice' : 'invalid_input',
    );
  }
  const analysis = withSeriesOrder({ kind, params: result.data } as Analysis);
  // A formula the engine cannot read would be saved, then fail every time the insight is opened:
  // a write is refused here, as the trend endpoint refuses it. (One stored before this check
  // still reads back: opening it answers the engine's 400.)
  if (mode.write && analysis.kind === 'TRENDS') {
    for (const { text, path } of formulasWithPath(analysis.params)) {
      try {
        formulaOf(text, orderedEntities(analysis.params).length);
      } catch (error) {
        if (!(error instanceof FormulaError)) throw error;
        throw new InsightInputError(attrOf([prefix, ...fieldPath(path)]), error.message);
      }
    }
  }
  return analysis;
}

/**
 * One value for one analysis, whichever form it came from: series entries in the order
 * orderedEntities reads them; `order` kept (as the position) only where events and actions
 * are mixed and it is needed to interleave them, else dropped (so the parameters, and the
 * analysis cache's key, equal those of a plain `trend/` or `funnel/` request).
 */
function withSeriesOrder(analysis: Analysis): Analysis {
  if (analysis.kind !== 'TRENDS' && analysis.kind !== 'FUNNELS') return analysis;
  const ordered = orderedEntities(analysis.params);
  const mixed = Boolean(analysis.params.events?.length && analysis.params.actions?.length);
  const placed = ordered.map((e, i): Entity => {
    const { order: _, ...rest } = e;
    return mixed ? { ...rest, order: i } : rest;
  });
  const params = { ...analysis.params };
  if (params.events) params.events = placed.filter((e) => e.type === 'events');
  if (params.actions) params.actions = placed.filter((e) => e.type === 'actions');
  return { ...analysis, params } as Analysis;
}

/** Legacy filters → the analysis (400 on `filters__…`). `insight` defaults to TRENDS. */
export function analysisFromFilters(filters: Json, mode: ReadMode = {}): Analysis {
  const kind = filters.insight ?? 'TRENDS';
  if (typeof kind !== 'string' || !(INSIGHT_KINDS as readonly string[]).includes(kind)) {
    throw new InsightInputError('filters__insight', `"${String(kind)}" is not a valid choice.`, 'invalid_choice');
  }
  const raw = { ...filters };
  delete raw.insight;
  return parseParams(kind as InsightKind, raw, (p) => [...p], 'filters', mode);
}

/** A query node (or an InsightVizNode around one) → the analysis (400 on `query__…`). */
export function analysisFromQuery(query: Json, mode: ReadMode = {}): Analysis {
  const wrapped = query.kind === 'InsightVizNode';
  const node = wrapped ? query.source : query;
  const prefix = wrapped ? ['query', 'source'] : ['query'];
  if (!isRecord(node)) throw new InsightInputError(attrOf(prefix), 'Expected a query node.');
  const kind = typeof node.kind === 'string' ? KIND_OF_QUERY.get(node.kind) : undefined;
  if (!kind) {
    throw new InsightInputError(
      attrOf([...prefix, 'kind']),
      `"${String(node.kind)}" is not a valid choice: use TrendsQuery, FunnelsQuery, RetentionQuery or PathsQuery.`,
      'invalid_choice',
    );
  }
  const { params, queryPath } = queryToRawParams(node);
  return parseParams(kind, params, queryPath, attrOf(prefix), mode);
}

/** The analysis of a write: the query when given, else the filters; null when neither says one. */
export function analysisOf(
  input: { filters?: Json | undefined; query?: Json | null | undefined },
  mode: ReadMode = {},
): Analysis | null {
  if (input.query) return analysisFromQuery(input.query, mode);
  if (input.filters && Object.keys(input.filters).length > 0) return analysisFromFilters(input.filters, mode);
  return null;
}
