import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatPercent, formatTick } from '../../lib/format';
import type { TrendsView } from '../../lib/view-types';
import { AxisTitle, axisProps, CHART_HEIGHT, tooltipContent, colour, margin, Sized } from './chart-frame';
import { SeriesLegend, useHiddenSeries } from './series-legend';

interface Item {
  key: string;
  label: string;
  colour: number;
  /** The series' colour: recharts draws each bar and sector in its data entry's `fill` (no Cell children). */
  fill: string;
  value: number;
  previous?: number;
}

/** One item per series (compare: the current period's, with the previous total beside it). */
function items(view: TrendsView): Item[] {
  const previous = new Map(view.series.filter((s) => s.period === 'previous').map((s) => [s.colour, s.total]));
  return view.series
    .filter((s) => s.period !== 'previous')
    .map((s) => ({
      key: s.key,
      label: s.label,
      colour: s.colour,
      fill: colour(s.colour),
      value: s.total,
      ...(view.compare ? { previous: previous.get(s.colour) ?? 0 } : {}),
    }));
}

function useItems(view: TrendsView) {
  const all = useMemo(() => items(view), [view]);
  const [hidden, toggle] = useHiddenSeries();
  const shown = useMemo(() => all.filter((item) => !hidden.has(item.key)), [all, hidden]);
  const legend = <SeriesLegend items={all} hidden={hidden} onToggle={toggle} />;
  return { shown, legend };
}

/** Room beside the pie for a percentage label ("45.7%" and its offset), and above and below it. */
export const PIE_LABEL_ROOM = { side: 70, top: 28 };

/** The pie's radii at `width`: as large as the height allows, leaving its labels room on a phone too. */
export function pieRadii(width: number, height = CHART_HEIGHT): { outerRadius: number; innerRadius: number } {
  const outerRadius = Math.max(40, Math.min(height / 2 - PIE_LABEL_ROOM.top, width / 2 - PIE_LABEL_ROOM.side));
  return { outerRadius, innerRadius: outerRadius * 0.56 };
}

/** Pie of the series' aggregated values. */
export function PieView({ view }: { view: TrendsView }) {
  const { shown, legend } = useItems(view);
  const total = shown.reduce((sum, item) => sum + Math.max(0, item.value), 0);
  return (
    <>
      <Sized>
        {(width) => (
          <PieChart width={width} height={CHART_HEIGHT} accessibilityLayer>
            <Pie
              data={shown}
              dataKey="value"
              nameKey="label"
              {...pieRadii(width)}
              stroke="none"
              isAnimationActive={false}
              label={({ value }: { value?: number }) =>
                total > 0 && (value ?? 0) / total >= 0.04 ? formatPercent((value ?? 0) / total) : ''
              }
              labelLine={false}
            />
            <Tooltip content={tooltipContent(view.unit)} isAnimationActive={false} />
          </PieChart>
        )}
      </Sized>
      {legend}
    </>
  );
}

/** Horizontal bars of the series' aggregated values (compare: the previous period's bar under each, paler). */
export function ValueBars({ view }: { view: TrendsView }) {
  const { shown, legend } = useItems(view);
  const height = Math.max(160, shown.length * (view.compare ? 40 : 28) + 48);
  const labelWidth = Math.min(220, Math.max(60, ...shown.map((item) => item.label.length * 7.5 + 16)));
  return (
    <>
      <Sized height={height}>
        {(width) => (
          <BarChart width={width} height={height} data={shown} layout="vertical" margin={margin} accessibilityLayer>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} horizontal={false} />
            <XAxis type="number" {...axisProps} tickFormatter={(value: number) => formatTick(value, view.unit)} />
            <YAxis type="category" dataKey="label" {...axisProps} width={labelWidth} interval={0} />
            <Tooltip
              content={tooltipContent(view.unit)}
              cursor={{ fill: 'currentColor', fillOpacity: 0.06 }}
              isAnimationActive={false}
            />
            <Bar dataKey="value" name={view.compare ? 'Current period' : 'Value'} isAnimationActive={false} />
            {view.compare ? (
              <Bar dataKey="previous" name="Previous period" isAnimationActive={false} fillOpacity={0.45} />
            ) : null}
          </BarChart>
        )}
      </Sized>
      <AxisTitle axis="x">{view.valueLabel}</AxisTitle>
      {legend}
    </>
  );
}
