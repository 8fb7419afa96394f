import { z } from '@/contract/z';
import {
  funnelStepSchema,
  funnelTimeToConvertSchema,
  funnelTrendsSeriesSchema,
  pathEdgeSchema,
  retentionCohortSchema,
  trendSeriesSchema,
} from '@/contract/analytics-results';
import type { Insight } from '@/contract/insights';
import { funnelView, retentionView } from '../lib/funnel-view';
import { funnelTrendsView, trendsView } from '../lib/trends-view';
import type { ResultView } from '../lib/view-types';
import { insightKind } from './insight-kind';

export type {
  FunnelStepView,
  FunnelView,
  ResultView,
  TrendDisplay,
  TrendSeriesView,
  TrendsView,
} from '../lib/view-types';
import { actorsTitle, PERSONS, type ActorWords } from '../lib/actor-words';
export { formatNumber, formatPercent } from '../lib/format';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A trends option from the legacy filters, else from the query node's `trendsFilter`. */
function trendsOption(insight: Pick<Insight, 'filters' | 'query'>, name: 'display' | 'compare'): unknown {
  if (insight.filters[name] !== undefined && insight.filters[name] !== null) return insight.filters[name];
  const query = insight.query;
  const node = isRecord(query) && isRecord(query.source) ? query.source : query;
  if (!isRecord(node)) return undefined;
  if (name === 'compare' && isRecord(node.compareFilter)) return node.compareFilter.compare;
  return isRecord(node.trendsFilter) ? node.trendsFilter[name] : undefined;
}

/** The group type an insight is aggregated by (its filters, else its query node); null: persons. */
export function aggregationIndexOf(insight: Pick<Insight, 'filters' | 'query'>): number | null {
  const query = insight.query;
  const node = isRecord(query) && isRecord(query.source) ? query.source : query;
  const index =
    insight.filters.aggregation_group_type_index ?? (isRecord(node) ? node.aggregation_group_type_index : null);
  return typeof index === 'number' ? index : null;
}

const EMPTY: ResultView = { type: 'empty' };

/** What, besides the result, decides its view: plain values (cheap memo keys when a page builds `insight` inline). */
export interface ViewOptions {
  kind: ReturnType<typeof insightKind>;
  display: string | null;
  compare: boolean;
  /** What unique counts and funnels count: persons, or a group type's groups. */
  actors?: ActorWords;
}

export function viewOptions(insight: Pick<Insight, 'filters' | 'query'>): ViewOptions {
  const display = trendsOption(insight, 'display');
  return {
    kind: insightKind(insight),
    display: typeof display === 'string' ? display : null,
    compare: trendsOption(insight, 'compare') === true,
  };
}

/** An insight's `result` (saved, shared, or live from an analysis endpoint) read into what its chart and table show. */
export function resultView(insight: Pick<Insight, 'filters' | 'query' | 'result'>): ResultView {
  return viewOf(insight.result, viewOptions(insight));
}

export function viewOf(result: unknown, { kind, display, compare, actors = PERSONS }: ViewOptions): ResultView {
  if (kind === 'TRENDS') {
    const parsed = z.array(trendSeriesSchema).safeParse(result);
    if (!parsed.success || parsed.data.length === 0) return EMPTY;
    return trendsView(parsed.data, { display, compare, actors });
  }
  if (kind === 'FUNNELS') {
    const time = funnelTimeToConvertSchema.safeParse(result);
    if (time.success) {
      if (time.data.bins.length === 0) return EMPTY;
      return {
        type: 'time-to-convert',
        bins: time.data.bins.map(([seconds, count]) => ({ seconds, count })),
        average: time.data.average_conversion_time,
        counted: actorsTitle(actors),
      };
    }
    if (!Array.isArray(result) || result.length === 0) return EMPTY;
    const steps = z.union([z.array(funnelStepSchema), z.array(z.array(funnelStepSchema))]).safeParse(result);
    if (steps.success) {
      const view = funnelView(steps.data);
      return view.steps.length > 0 ? view : EMPTY;
    }
    const trends = z.array(funnelTrendsSeriesSchema).safeParse(result);
    return trends.success ? funnelTrendsView(trends.data) : EMPTY;
  }
  if (kind === 'RETENTION') {
    const parsed = z.array(retentionCohortSchema).safeParse(result);
    if (!parsed.success || parsed.data.length === 0) return EMPTY;
    return retentionView(parsed.data);
  }
  const parsed = z.array(pathEdgeSchema).safeParse(result);
  if (!parsed.success || parsed.data.length === 0) return EMPTY;
  return {
    type: 'paths',
    // A path edge's time is in milliseconds (the production service's unit for paths, where
    // funnels count seconds); the view counts seconds.
    edges: parsed.data.map(({ source, target, value, average_conversion_time: ms }) => ({
      source,
      target,
      value,
      averageTime: ms === null ? null : ms / 1000,
    })),
  };
}
