import type { Interval, TrendSeries } from '../../../src/contract/analytics.ts';
import { formatDay, formatLabel } from '../query/dates.ts';
import { evaluateFormula, type FormulaNode } from './formula.ts';
import {
  BREAKDOWN_NULL_LABEL,
  BREAKDOWN_NULL_VALUE,
  BREAKDOWN_OTHER_LABEL,
  BREAKDOWN_OTHER_VALUE,
  type TrendSeriesSpec,
} from './trends-types.ts';

/** The values of one series in one period, per breakdown key (`v:<value>`, `none`, `other`). */
export interface SeriesEntry {
  /** 0 = a ranked value, 1 = None, 2 = Other. */
  kind: number;
  /** The value; with several breakdowns, one per breakdown. */
  value: string | readonly string[] | null;
  rank: number | null;
  /** Bucket start (wall ms; 0 when aggregated) → value. */
  byBucket: Map<number, number>;
}
export type SeriesValues = Map<string, SeriesEntry>;

export interface PeriodResult {
  buckets: number[];
  values: SeriesValues[];
  from: number;
  to: number;
}

export interface TrendFormula {
  text: string;
  node: FormulaNode;
}

export interface AssembleOptions {
  result: PeriodResult;
  series: readonly TrendSeriesSpec[];
  /** The trend's formulas in order (none: each series as it is). */
  formulas: readonly TrendFormula[];
  interval: Interval;
  aggregate: boolean;
  cumulative: boolean;
  breakdown: boolean;
  /** With several breakdowns, how many (each value is a list of that length); else 0. */
  breakdownParts: number;
  compareLabel: 'current' | 'previous' | null;
  /** The request's parameters, echoed in each series. */
  filter: NonNullable<TrendSeries['filter']>;
}

const NO_BREAKDOWN_KEY = 'v:';

/** Keys in display order: ranked values by rank, then None, then Other. */
function orderedKeys(entries: Iterable<[string, SeriesEntry]>): string[] {
  const order = (e: SeriesEntry) => (e.kind === 0 ? (e.rank ?? 0) : e.kind === 1 ? 1e9 : 2e9);
  return [...entries].sort((a, b) => order(a[1]) - order(b[1])).map(([key]) => key);
}

/** A value's label: None for a missing one; several breakdowns' values joined. */
const valueLabel = (value: string | readonly string[]): string =>
  typeof value === 'string'
    ? value
    : value.map((v) => (v === BREAKDOWN_NULL_VALUE ? BREAKDOWN_NULL_LABEL : v)).join(' · ');

function breakdownFields(
  entry: SeriesEntry | undefined,
  key: string,
  parts: number,
): { label: string; value: string | string[] } {
  if (key === 'none' || entry?.kind === 1) return { label: BREAKDOWN_NULL_LABEL, value: BREAKDOWN_NULL_VALUE };
  if (key === 'other' || entry?.kind === 2) {
    return {
      label: BREAKDOWN_OTHER_LABEL,
      value: parts > 0 ? Array.from({ length: parts }, () => BREAKDOWN_OTHER_VALUE) : BREAKDOWN_OTHER_VALUE,
    };
  }
  const value = entry?.value ?? key.slice(2);
  return { label: valueLabel(value), value: typeof value === 'string' ? value : [...value] };
}

const running = (data: number[]) => {
  let total = 0;
  return data.map((v) => (total += v));
};

/** One period's rows → the response's series (breakdowns, formula, cumulative, aggregated value). */
export function assembleSeries(o: AssembleOptions): TrendSeries[] {
  const { result } = o;
  const points = o.aggregate ? [0] : result.buckets;
  const days = result.buckets.map((b) => formatDay(b, o.interval));
  const labels = result.buckets.map((b) => formatLabel(b, o.interval));
  const read = (entry: SeriesEntry | undefined) => points.map((b) => entry?.byBucket.get(b) ?? 0);

  const build = (
    data: number[],
    label: string,
    action: Record<string, unknown> | null,
    breakdownValue?: string | string[],
  ): TrendSeries => {
    const shown = o.cumulative && !o.aggregate ? running(data) : data;
    const out: TrendSeries = {
      data: o.aggregate ? [] : shown,
      days,
      labels,
      label,
      count: shown.reduce((a, b) => a + b, 0),
      action,
      filter: o.filter,
    };
    if (o.aggregate) out.aggregated_value = data[0] ?? 0;
    if (o.breakdown) out.breakdown_value = breakdownValue ?? null;
    if (o.compareLabel) {
      out.compare = true;
      out.compare_label = o.compareLabel;
    }
    return out;
  };

  if (o.formulas.length > 0) {
    const keys: string[] = [];
    const entryOf = new Map<string, SeriesEntry>();
    if (!o.breakdown) keys.push(NO_BREAKDOWN_KEY);
    else {
      for (const values of result.values) {
        for (const key of orderedKeys(values)) {
          if (!entryOf.has(key)) {
            keys.push(key);
            entryOf.set(key, values.get(key)!);
          }
        }
      }
    }
    // One series per formula (and breakdown value); with several formulas a breakdown value's
    // label names its formula too.
    return o.formulas.flatMap((formula) =>
      keys.map((key) => {
        const columns = result.values.map((values) => read(values.get(key)));
        const data = points.map((_, j) =>
          evaluateFormula(
            formula.node,
            columns.map((c) => c[j] ?? 0),
          ),
        );
        const bd = o.breakdown ? breakdownFields(entryOf.get(key), key, o.breakdownParts) : null;
        const label = !bd ? formula.text : o.formulas.length > 1 ? `${formula.text} · ${bd.label}` : bd.label;
        return build(data, label, null, bd?.value);
      }),
    );
  }

  return o.series.flatMap((spec) => {
    const values = result.values[spec.index]!;
    // The entry without its property filters: they are in the request, and one copy per
    // breakdown value would multiply the response by the request's size.
    const { properties: _filters, ...entry } = spec.entity;
    const action = { ...entry, order: spec.entity.order ?? spec.index };
    if (!o.breakdown) return [build(read(values.get(NO_BREAKDOWN_KEY)), spec.label, action)];
    return orderedKeys(values).map((key) => {
      const entry = values.get(key);
      const bd = breakdownFields(entry, key, o.breakdownParts);
      return build(read(entry), bd.label, action, bd.value);
    });
  });
}
