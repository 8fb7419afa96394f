import { z } from 'zod';
import { funnelStepSchema, funnelTimeToConvertSchema, pathEdgeSchema, retentionCohortSchema, trendSeriesSchema } from '@/contract/analytics-results';
import type { Insight } from '@/contract/insights';
import { insightKind } from './insight-kind';

export interface TrendSeriesView {
  label: string;
  data: number[];
  total: number;
}

/** An insight's `result`, read into what its chart and its table both show. */
export type ResultView =
  | { type: 'trends'; display: 'line' | 'bar' | 'number'; labels: string[]; series: TrendSeriesView[] }
  | { type: 'funnel'; steps: Array<{ name: string; count: number; conversion: number; fromPrevious: number }> }
  | { type: 'time-to-convert'; bins: Array<{ seconds: number; count: number }>; average: number | null }
  | { type: 'retention'; periods: number; cohorts: Array<{ label: string; date: string; counts: number[] }> }
  | { type: 'paths'; edges: Array<{ source: string; target: string; value: number }> }
  | { type: 'empty' };

const BAR_DISPLAYS = new Set(['ActionsBar', 'ActionsBarValue', 'ActionsPie', 'ActionsStackedBar', 'ActionsAreaGraph']);
const NUMBER_DISPLAYS = new Set(['BoldNumber']);

function trendDisplay(insight: Pick<Insight, 'filters' | 'query'>): 'line' | 'bar' | 'number' {
  const query = insight.query as { source?: { trendsFilter?: { display?: unknown } }; trendsFilter?: { display?: unknown } } | null;
  const display = insight.filters.display ?? query?.source?.trendsFilter?.display ?? query?.trendsFilter?.display;
  if (typeof display !== 'string') return 'line';
  if (NUMBER_DISPLAYS.has(display)) return 'number';
  return BAR_DISPLAYS.has(display) ? 'bar' : 'line';
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

export function resultView(insight: Pick<Insight, 'filters' | 'query' | 'result'>): ResultView {
  const kind = insightKind(insight);
  const result = insight.result;
  if (kind === 'TRENDS') {
    const parsed = z.array(trendSeriesSchema).safeParse(result);
    if (!parsed.success || parsed.data.length === 0) return { type: 'empty' };
    const display = trendDisplay(insight);
    // With a breakdown, a series' `label` is already its breakdown value (API-DECISIONS); the
    // series' own name (from `action`) goes in front only when there is more than one series.
    const nameOf = (s: (typeof parsed.data)[number]) => {
      const a = s.action ?? {};
      return String(a.custom_name || a.name || a.id || 'All events');
    };
    const names = new Set(parsed.data.map(nameOf));
    const series = parsed.data.map((s) => ({
      label: s.breakdown_value !== undefined && s.breakdown_value !== null && names.size > 1 ? `${nameOf(s)} · ${s.label}` : s.label,
      data: s.data,
      total: s.aggregated_value ?? s.count,
    }));
    const labels = parsed.data[0]!.labels.length > 0 ? parsed.data[0]!.labels : parsed.data[0]!.days;
    const aggregated = series.every((s) => s.data.length === 0);
    return { type: 'trends', display: aggregated && display === 'line' ? 'bar' : display, labels: aggregated ? [] : labels, series };
  }
  if (kind === 'FUNNELS') {
    const steps = z.array(funnelStepSchema).safeParse(result);
    if (steps.success) {
      if (steps.data.length === 0) return { type: 'empty' };
      const first = steps.data[0]!.count;
      return {
        type: 'funnel',
        steps: steps.data.map((step, index) => ({
          name: step.custom_name || step.name || `Step ${index + 1}`,
          count: step.count,
          conversion: ratio(step.count, first),
          fromPrevious: index === 0 ? 1 : ratio(step.count, steps.data[index - 1]!.count),
        })),
      };
    }
    const time = funnelTimeToConvertSchema.safeParse(result);
    if (time.success) {
      return { type: 'time-to-convert', bins: time.data.bins.map(([seconds, count]) => ({ seconds, count })), average: time.data.average_conversion_time };
    }
    return { type: 'empty' };
  }
  if (kind === 'RETENTION') {
    const parsed = z.array(retentionCohortSchema).safeParse(result);
    if (!parsed.success || parsed.data.length === 0) return { type: 'empty' };
    const cohorts = parsed.data.map((c) => ({ label: c.label, date: c.date, counts: c.values.map((v) => v.count) }));
    return { type: 'retention', periods: Math.max(...cohorts.map((c) => c.counts.length)), cohorts };
  }
  const parsed = z.array(pathEdgeSchema).safeParse(result);
  if (!parsed.success || parsed.data.length === 0) return { type: 'empty' };
  return { type: 'paths', edges: parsed.data.map(({ source, target, value }) => ({ source, target, value })) };
}

const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export const formatPercent = (value: number) => percentFormat.format(value);
export const formatNumber = (value: number) => numberFormat.format(value);
