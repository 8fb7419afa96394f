import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDuration, formatTick } from '../../lib/format';
import type { RetentionView, TimeToConvertView } from '../../lib/view-types';
import { AxisTitle, axisProps, CHART_HEIGHT, tooltipContent, colour, gridProps, margin, Sized } from './chart-frame';

/** Time to convert: persons per bin of conversion time (x: the bin's start as a duration). */
export function TimeToConvertChart({ view }: { view: TimeToConvertView }) {
  const data = useMemo(
    () => view.bins.map((bin) => ({ label: formatDuration(bin.seconds), count: bin.count })),
    [view],
  );
  return (
    <>
      {view.average !== null ? (
        <p className="mb-2 text-sm">
          Average time to convert: <span className="font-semibold">{formatDuration(view.average)}</span>
        </p>
      ) : null}
      <AxisTitle axis="y">{view.counted}</AxisTitle>
      <Sized>
        {(width) => (
          <BarChart
            width={width}
            height={CHART_HEIGHT}
            data={data}
            margin={margin}
            barCategoryGap={2}
            accessibilityLayer
          >
            <CartesianGrid {...gridProps} />
            <XAxis dataKey="label" {...axisProps} minTickGap={16} />
            <YAxis
              {...axisProps}
              allowDecimals={false}
              width={56}
              tickFormatter={(value: number) => formatTick(value, 'number')}
            />
            <Tooltip
              content={tooltipContent('number')}
              cursor={{ fill: 'currentColor', fillOpacity: 0.06 }}
              isAnimationActive={false}
            />
            <Bar dataKey="count" name="Persons" fill={colour(1)} isAnimationActive={false} />
          </BarChart>
        )}
      </Sized>
      <AxisTitle axis="x">Time to convert</AxisTitle>
    </>
  );
}

/** The retention curve: per period, the share of the cohorts' persons still there; a line per breakdown value. */
export function RetentionCurve({ view }: { view: RetentionView }) {
  const data = useMemo(
    () =>
      Array.from({ length: view.periods }, (_, period) =>
        Object.fromEntries([
          ['label', `${view.periodName} ${period}`],
          ...view.groups.map((g, i) => [`g${i}`, g.curve[period] ?? null]),
        ]),
      ),
    [view],
  );
  return (
    <>
      <AxisTitle axis="y">Share of persons retained (average of the cohorts)</AxisTitle>
      <Sized height={240}>
        {(width) => (
          <LineChart width={width} height={240} data={data} margin={margin} accessibilityLayer>
            <CartesianGrid {...gridProps} />
            <XAxis dataKey="label" {...axisProps} minTickGap={16} />
            <YAxis
              {...axisProps}
              width={56}
              domain={[0, 1]}
              tickFormatter={(value: number) => formatTick(value, 'ratio')}
            />
            <Tooltip
              content={tooltipContent('ratio')}
              cursor={{ stroke: 'currentColor', strokeOpacity: 0.3 }}
              isAnimationActive={false}
            />
            {/* In the API's order (most places first, then None, Other), not recharts' alphabetical one. */}
            {view.groups.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} /> : null}
            {view.groups.map((g, i) => (
              <Line
                key={i}
                dataKey={`g${i}`}
                name={g.label === null ? 'Retained (average)' : g.label}
                stroke={colour(i)}
                strokeWidth={2}
                dot={{ r: 3 }}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        )}
      </Sized>
    </>
  );
}
