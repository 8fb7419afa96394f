import type { TrendsView } from '../../lib/view-types';
import { labelEvery, niceTicks } from '@/lib/scales';

/** `top` leaves room for the value axis's title above its tick labels. */
export const PLOT_MARGIN = { top: 28, right: 16, bottom: 28, left: 64 } as const;

export interface SeriesMark {
  key: string;
  index: number;
  /** One SVG path for the whole series: its line, or all its bars. */
  d: string;
  colour: number;
  previous: boolean;
  /** An area's outline is a closed shape: filled, its top edge stroked. */
  area: boolean;
}

export interface Geometry {
  width: number;
  height: number;
  bar: boolean;
  marks: SeriesMark[];
  yTicks: Array<{ value: number; y: number }>;
  /** The x axis's labels: where each is drawn (`x`, with its text anchor) and the point it names (`at`). */
  xTicks: XTick[];
  /** The x of point `i` (a bar group's centre). */
  xAt: (i: number) => number;
  yAt: (value: number) => number;
  /** Where series `key`'s point `i` is drawn (stacked areas: the top of its band). */
  pointY: (key: string, i: number) => number;
  /** The point under the pointer's x. */
  indexAt: (x: number) => number;
}

export interface XTick {
  label: string;
  /** The x of the point it names. */
  at: number;
  /** Where its text is drawn, and which end of it stands there. */
  x: number;
  anchor: 'start' | 'middle' | 'end';
}

const px = (value: number) => Math.round(value * 10) / 10;
/** About how wide an axis label's text is (12 px sans-serif), per character. */
const CHAR_PX = 6.6;

/**
 * The x labels every `every` points, each inside the chart (one near an edge stands on that
 * side of its point) and none over the one before it: an edge label drawn toward the middle
 * could reach the previous label, and is then left out.
 */
function xLabels(labels: readonly string[], every: number, xAt: (i: number) => number, width: number): XTick[] {
  const out: XTick[] = [];
  let end = -Infinity;
  labels.forEach((label, i) => {
    if (i % every !== 0) return;
    const at = xAt(i);
    const w = label.length * CHAR_PX;
    const anchor = at - w / 2 < 0 ? 'start' : at + w / 2 > width ? 'end' : 'middle';
    const x = anchor === 'start' ? Math.max(0, at - 4) : anchor === 'end' ? Math.min(width, at + 4) : at;
    const left = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
    if (left < end + 8) return;
    out.push({ label, at, x, anchor });
    end = left + w;
  });
  return out;
}

/**
 * Where everything of a time-series chart goes, computed once per result, size and hidden set:
 * each series is one path (no element per point), so 30 series × 365 days stay 30 elements.
 */
export function seriesGeometry(view: TrendsView, hidden: ReadonlySet<string>, width: number, height: number): Geometry {
  const bar = view.display === 'bar';
  const area = view.display === 'area';
  const count = view.labels.length;
  const visible = view.series
    .map((series, index) => ({ series, index }))
    .filter(({ series }) => !hidden.has(series.key));
  // Stacked areas: each visible series on top of those before it in its period (a compared
  // previous period is a stack of its own); lines and bars stand on zero.
  const bottoms = new Map<string, number[]>();
  const tops = new Map<string, number[]>();
  const running = new Map<string, number[]>();
  for (const { series } of visible) {
    const below = area ? (running.get(series.period ?? '') ?? series.data.map(() => 0)) : series.data.map(() => 0);
    const top = series.data.map((value, i) => (below[i] ?? 0) + value);
    bottoms.set(series.key, below);
    tops.set(series.key, top);
    if (area) running.set(series.period ?? '', top);
  }
  let min = 0;
  let max = 0;
  for (const top of tops.values()) {
    for (const value of top) {
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  const ticks = niceTicks(min, max);
  const yMin = ticks[0]!;
  const yMax = ticks.at(-1)!;
  const left = PLOT_MARGIN.left;
  const top = PLOT_MARGIN.top;
  const plotWidth = Math.max(1, width - left - PLOT_MARGIN.right);
  const plotHeight = Math.max(1, height - top - PLOT_MARGIN.bottom);
  const band = plotWidth / Math.max(1, count);
  const step = count > 1 ? plotWidth / (count - 1) : 0;
  const xAt = bar
    ? (i: number) => left + band * (i + 0.5)
    : count > 1
      ? (i: number) => left + step * i
      : () => left + plotWidth / 2;
  const yAt = (value: number) => top + plotHeight * (1 - (value - yMin) / (yMax - yMin || 1));
  const indexAt = (x: number) => {
    const raw = bar ? Math.floor((x - left) / band) : step > 0 ? Math.round((x - left) / step) : 0;
    return Math.min(count - 1, Math.max(0, raw));
  };

  const baseline = yAt(Math.max(yMin, Math.min(0, yMax)));
  const group = band * 0.8;
  const barWidth = group / Math.max(1, visible.length);
  const marks = visible.map(({ series, index }, position): SeriesMark => {
    const parts: string[] = [];
    if (bar) {
      const offset = band * 0.1 + position * barWidth;
      series.data.forEach((value, i) => {
        if (value === 0) return;
        parts.push(
          `M${px(left + band * i + offset)},${px(yAt(value))}h${px(barWidth)}V${px(baseline)}h${px(-barWidth)}Z`,
        );
      });
    } else {
      const top = tops.get(series.key)!;
      top.forEach((value, i) => parts.push(`${i === 0 ? 'M' : 'L'}${px(xAt(i))},${px(yAt(value))}`));
      if (area && top.length > 0) {
        const below = bottoms.get(series.key)!;
        for (let i = below.length - 1; i >= 0; i -= 1) parts.push(`L${px(xAt(i))},${px(yAt(below[i]!))}`);
        parts.push('Z');
      }
    }
    return {
      key: series.key,
      index,
      d: parts.join(''),
      colour: series.colour,
      previous: series.period === 'previous',
      area,
    };
  });
  const pointY = (key: string, i: number) => yAt(tops.get(key)?.[i] ?? 0);

  const longest = view.labels.reduce((longest, label) => Math.max(longest, label.length), 0);
  const every = labelEvery(count, plotWidth, longest * CHAR_PX);
  const xTicks = xLabels(view.labels, every, xAt, width);
  return {
    width,
    height,
    bar,
    marks,
    yTicks: ticks.map((value) => ({ value, y: yAt(value) })),
    xTicks,
    xAt,
    yAt,
    pointY,
    indexAt,
  };
}
