import type {
  FunnelStep,
  FunnelTimeToConvert,
  FunnelTrendsSeries,
  PathEdge,
  RetentionCohort,
  TrendSeries,
} from '../../src/contract/index.ts';
import type { FunnelResultBody } from '../analytics/engines/funnels.ts';

/**
 * CSV of insights and of their results (`format=csv`). Every cell is data: text is quoted when
 * it holds a separator, a quote or a line break, and text a spreadsheet would run as a formula
 * (starting with = + - @ or a control character) is prefixed with `'`.
 */

type Cell = string | number | boolean | null | undefined;

function cell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvText(rows: readonly (readonly Cell[])[]): string {
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

const text = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v);

function trendRows(series: TrendSeries[]): Cell[][] {
  const days = series[0]?.days ?? [];
  const aggregated = series.length > 0 && series.every((s) => s.days.length === 0);
  if (aggregated) {
    return [
      ['series', 'breakdown_value', 'value'],
      ...series.map((s) => [s.label, text(s.breakdown_value), s.aggregated_value ?? s.count]),
    ];
  }
  return [
    ['series', 'breakdown_value', 'compare_label', ...days],
    ...series.map((s) => [s.label, text(s.breakdown_value), s.compare_label ?? null, ...s.data]),
  ];
}

function funnelRows(result: FunnelResultBody): Cell[][] {
  if (!Array.isArray(result)) {
    const ttc = result as FunnelTimeToConvert;
    return [['seconds', 'persons'], ...ttc.bins.map(([s, n]) => [s, n])];
  }
  const first = result[0];
  if (first !== undefined && !Array.isArray(first) && 'data' in first) {
    return trendRows(
      (result as FunnelTrendsSeries[]).map((s) => ({
        ...s,
        label: text(s.breakdown_value) ?? 'Conversion rate',
        count: s.count ?? 0,
      })),
    );
  }
  const lists = (first !== undefined && Array.isArray(first) ? result : [result]) as FunnelStep[][];
  return [
    ['breakdown_value', 'step', 'name', 'count', 'average_conversion_time', 'median_conversion_time'],
    ...lists.flatMap((steps) =>
      steps.map((s) => [
        text(s.breakdown_value),
        s.order,
        s.custom_name ?? s.name,
        s.count,
        s.average_conversion_time,
        s.median_conversion_time,
      ]),
    ),
  ];
}

function retentionRows(cohorts: RetentionCohort[]): Cell[][] {
  const periods = Math.max(0, ...cohorts.map((c) => c.values.length));
  return [
    ['cohort', 'date', ...Array.from({ length: periods }, (_, i) => `period ${i}`)],
    ...cohorts.map((c) => [c.label, c.date, ...c.values.map((v) => v.count)]),
  ];
}

function pathRows(edges: PathEdge[]): Cell[][] {
  return [
    ['source', 'target', 'value', 'average_conversion_time'],
    ...edges.map((e) => [e.source, e.target, e.value, e.average_conversion_time]),
  ];
}

export type InsightResult =
  | { kind: 'TRENDS'; result: TrendSeries[] }
  | { kind: 'FUNNELS'; result: FunnelResultBody }
  | { kind: 'RETENTION'; result: RetentionCohort[] }
  | { kind: 'PATHS'; result: PathEdge[] };

/** The rows of a result, one header row first. */
export function resultRows(r: InsightResult): Cell[][] {
  switch (r.kind) {
    case 'TRENDS':
      return trendRows(r.result);
    case 'FUNNELS':
      return funnelRows(r.result);
    case 'RETENTION':
      return retentionRows(r.result);
    case 'PATHS':
      return pathRows(r.result);
  }
}
