import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatTick } from '../../lib/format';
import type { TrendsView } from '../../lib/view-types';
import { axisProps, CHART_HEIGHT, tooltipContent, colour, gridProps, margin, Sized } from './chart-frame';
import { SeriesLegend, useHiddenSeries } from './series-legend';

type Row = Record<string, string | number>;

/** One row per x label: `s<i>` is series i's value there (keys free of the dots recharts reads as paths). */
function rows(view: TrendsView): Row[] {
  return view.labels.map((label, index) => {
    const row: Row = { label };
    view.series.forEach((series, s) => {
      const value = series.data[index];
      if (value !== undefined) row[`s${s}`] = value;
    });
    return row;
  });
}

/**
 * Trends over time: lines (cumulative: running sums) or bars. With compare the previous period is
 * drawn in its series' colour, dashed (bars: paler). The legend hides and shows series.
 */
export function TrendsChart({ view }: { view: TrendsView }) {
  const data = useMemo(() => rows(view), [view]);
  const [hidden, toggle] = useHiddenSeries();
  const legend = useMemo(
    () => view.series.map((s) => ({ key: s.key, label: s.label, colour: s.colour, dashed: s.period === 'previous' })),
    [view.series],
  );
  const bar = view.display === 'bar';
  const unit = view.unit;
  const drawn = view.series.map((series, index) => ({ series, index })).filter(({ series }) => !hidden.has(series.key));
  return (
    <>
      <Sized>
        {(width) => {
          const Chart = bar ? BarChart : LineChart;
          return (
            <Chart width={width} height={CHART_HEIGHT} data={data} margin={margin} accessibilityLayer>
              <CartesianGrid {...gridProps} />
              <XAxis dataKey="label" {...axisProps} minTickGap={24} />
              <YAxis {...axisProps} width={56} tickFormatter={(value: number) => formatTick(value, unit)} />
              <Tooltip content={tooltipContent(unit)} cursor={{ stroke: 'currentColor', strokeOpacity: 0.3, fill: 'currentColor', fillOpacity: 0.06 }} isAnimationActive={false} />
              {drawn.map(({ series, index }) => {
                const previous = series.period === 'previous';
                return bar ? (
                  <Bar
                    key={series.key} dataKey={`s${index}`} name={series.label} fill={colour(series.colour)}
                    fillOpacity={previous ? 0.45 : 1} isAnimationActive={false}
                  />
                ) : (
                  <Line
                    key={series.key} dataKey={`s${index}`} name={series.label} stroke={colour(series.colour)} type="linear"
                    strokeDasharray={previous ? '6 4' : undefined} dot={false} activeDot={{ r: 3 }} strokeWidth={2} isAnimationActive={false}
                  />
                );
              })}
            </Chart>
          );
        }}
      </Sized>
      <SeriesLegend items={legend} hidden={hidden} onToggle={toggle} />
    </>
  );
}
