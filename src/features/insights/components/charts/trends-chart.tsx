import { memo, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { formatTick, formatValue } from '../../lib/format';
import type { TrendsView } from '../../lib/view-types';
import { CHART_HEIGHT, colour, Sized } from './chart-frame';
import { PLOT_MARGIN, seriesGeometry, type Geometry } from './series-geometry';
import { SeriesLegend, useHiddenSeries } from './series-legend';

/** Grid, axes and one path per series: memoised, so hovering redraws only the pointer's marks. */
const Plot = memo(function Plot({
  geometry,
  unit,
  title,
}: {
  geometry: Geometry;
  unit: TrendsView['unit'];
  title: string;
}) {
  const { width, height, marks, yTicks, xTicks, bar } = geometry;
  const bottom = height - PLOT_MARGIN.bottom;
  return (
    <>
      <g className="text-gray-700 dark:text-gray-300" fontSize={12} fill="currentColor">
        <text x={0} y={12} fontWeight={500} data-axis-title="y">
          {title}
        </text>
        {yTicks.map((tick) => (
          <g key={tick.value}>
            <line
              x1={PLOT_MARGIN.left}
              x2={width - PLOT_MARGIN.right}
              y1={tick.y}
              y2={tick.y}
              stroke="currentColor"
              strokeOpacity={0.15}
              strokeDasharray="3 3"
            />
            <text x={PLOT_MARGIN.left - 8} y={tick.y} dy="0.32em" textAnchor="end">
              {formatTick(tick.value, unit)}
            </text>
          </g>
        ))}
        <line
          x1={PLOT_MARGIN.left}
          x2={width - PLOT_MARGIN.right}
          y1={bottom}
          y2={bottom}
          stroke="currentColor"
          strokeOpacity={0.4}
        />
        {xTicks.map((tick) => (
          <text key={tick.at} x={tick.x} y={bottom + 18} textAnchor={tick.anchor} data-x-label>
            {tick.label}
          </text>
        ))}
      </g>
      {marks.map((mark) =>
        bar ? (
          <path
            key={mark.key}
            data-series={mark.key}
            d={mark.d}
            fill={colour(mark.colour)}
            fillOpacity={mark.previous ? 0.45 : 1}
          />
        ) : (
          <path
            key={mark.key}
            data-series={mark.key}
            d={mark.d}
            fill={mark.area ? colour(mark.colour) : 'none'}
            fillOpacity={mark.area ? (mark.previous ? 0.25 : 0.55) : undefined}
            stroke={colour(mark.colour)}
            strokeWidth={mark.area ? 1.5 : 2}
            strokeLinejoin="round"
            strokeDasharray={mark.previous ? '6 4' : undefined}
          />
        ),
      )}
    </>
  );
});

const CHART_WORDS: Partial<Record<TrendsView['display'], string>> = { bar: 'Bar chart', area: 'Stacked area chart' };

/** Rows of the pointer's box per column: what the chart's height holds. */
const ROWS = 16;

/** A series' value at point `index` in its unit; null where it has none. */
const valueAt = (series: TrendsView['series'][number], index: number, unit: TrendsView['unit']) =>
  series.data[index] === undefined ? null : formatValue(series.data[index], unit);

/** What a screen reader says of point `index` chosen with the keyboard: its date, then each visible series' value. */
function pointSummary(view: TrendsView, index: number, hidden: ReadonlySet<string>): string {
  const values = view.series
    .filter((series) => !hidden.has(series.key))
    .map((series) => `${series.label}: ${valueAt(series, index, view.unit) ?? 'no value'}`);
  return `${view.labels[index]}. ${values.join('; ')}`;
}

/** The hovered (or keyboard-selected) point: a rule, the lines' dots, and every series' value in a box. */
function Pointer({
  view,
  geometry,
  index,
  hidden,
}: {
  view: TrendsView;
  geometry: Geometry;
  index: number;
  hidden: ReadonlySet<string>;
}) {
  const x = geometry.xAt(index);
  // Every visible series; many of them: the largest values at this point first, in columns.
  const visible = view.series.filter((series) => !hidden.has(series.key));
  const shown = visible.length > 8 ? [...visible].sort((a, b) => (b.data[index] ?? 0) - (a.data[index] ?? 0)) : visible;
  const previousDay = view.compare ? view.series.find((s) => s.period === 'previous')?.labels[index] : undefined;
  const flip = x > geometry.width / 2;
  // Beside the pointer, on the side with more room: as many columns of up to ROWS as the series
  // need and 10rem columns fit beside it; what still does not fit is counted (the table has it).
  const room = Math.max(160, (flip ? x : geometry.width - x) - 24);
  const columns = Math.max(1, Math.min(Math.ceil(shown.length / ROWS), Math.floor(room / 160)));
  const listed = shown.length > columns * ROWS ? shown.slice(0, columns * ROWS - 1) : shown;
  return (
    <>
      <svg
        className="pointer-events-none absolute inset-0 overflow-visible"
        width={geometry.width}
        height={geometry.height}
        aria-hidden="true"
      >
        <line
          x1={x}
          x2={x}
          y1={PLOT_MARGIN.top}
          y2={geometry.height - PLOT_MARGIN.bottom}
          stroke="currentColor"
          strokeOpacity={0.35}
        />
        {geometry.bar
          ? null
          : shown.map((series) => {
              const value = series.data[index];
              return value === undefined ? null : (
                <circle
                  key={series.key}
                  cx={x}
                  cy={geometry.pointY(series.key, index)}
                  r={3}
                  fill={colour(series.colour)}
                />
              );
            })}
      </svg>
      <div
        role="tooltip"
        className="pointer-events-none absolute top-2 z-10 w-max overflow-hidden rounded-md border border-gray-200 bg-white px-3 py-2 text-xs text-gray-900 shadow-md dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100"
        style={{
          ...(flip ? { right: geometry.width - x + 12 } : { left: x + 12 }),
          maxWidth: Math.min(room, columns * 256),
        }}
      >
        <p className="mb-1 font-medium">
          {view.labels[index]}
          {previousDay ? (
            <span className="font-normal text-gray-700 dark:text-gray-300"> (previous: {previousDay})</span>
          ) : null}
        </p>
        <ul className="gap-x-4" style={{ columns }}>
          {listed.map((series) => (
            <li key={series.key} className="flex break-inside-avoid items-center gap-2 pb-0.5">
              <span
                aria-hidden="true"
                className="inline-block size-2 shrink-0 rounded-full"
                style={{ background: colour(series.colour) }}
              />
              <span className="min-w-0 flex-1 truncate">{series.label}</span>
              <span className="tabular-nums">{valueAt(series, index, view.unit) ?? '–'}</span>
            </li>
          ))}
          {listed.length < shown.length ? (
            <li className="text-gray-700 dark:text-gray-300">
              and {shown.length - listed.length} more (see the table)
            </li>
          ) : null}
        </ul>
      </div>
    </>
  );
}

function SeriesPlot({ view, hidden, width }: { view: TrendsView; hidden: ReadonlySet<string>; width: number }) {
  const geometry = useMemo(() => seriesGeometry(view, hidden, width, CHART_HEIGHT), [view, hidden, width]);
  const [active, setActive] = useState<number | null>(null);
  // A point chosen with the keyboard is also read out (a live region); one under the mouse is not.
  const [byKeyboard, setByKeyboard] = useState(false);
  const count = view.labels.length;
  const onMove = (event: MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setByKeyboard(false);
    setActive(geometry.indexAt(event.clientX - box.left));
  };
  const onKey = (event: KeyboardEvent<SVGSVGElement>) => {
    const moves: Record<string, (at: number) => number> = {
      ArrowRight: (at) => at + 1,
      ArrowLeft: (at) => at - 1,
      Home: () => 0,
      End: () => count - 1,
    };
    if (event.key === 'Escape') return setActive(null);
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setByKeyboard(true);
    setActive((at) =>
      Math.min(count - 1, Math.max(0, at === null ? (event.key === 'ArrowLeft' ? count - 1 : 0) : move(at))),
    );
  };
  return (
    <div className="relative" data-chart={view.display}>
      <svg
        width={width}
        height={CHART_HEIGHT}
        role="img"
        tabIndex={0}
        aria-label={`${CHART_WORDS[view.display] ?? 'Line chart'} of ${view.valueLabel}, ${view.series.length} series over ${count} points; arrow keys read each point, the table below has every number`}
        className="block rounded focus-visible:outline-2 focus-visible:outline-indigo-600"
        onMouseMove={onMove}
        onMouseLeave={() => setActive(null)}
        onKeyDown={onKey}
        onBlur={() => setActive(null)}
      >
        <Plot geometry={geometry} unit={view.unit} title={view.valueLabel} />
      </svg>
      {active !== null ? <Pointer view={view} geometry={geometry} index={active} hidden={hidden} /> : null}
      <p className="sr-only" aria-live="polite">
        {active !== null && byKeyboard ? pointSummary(view, active, hidden) : ''}
      </p>
    </div>
  );
}

/**
 * Trends over time: lines (cumulative: running sums), stacked areas or bars, drawn as plain SVG (one path per
 * series: a year of days × 30 series paints in a few milliseconds). With compare the previous
 * period is in its series' colour, dashed (bars: paler). The legend hides and shows series.
 */
export function TrendsChart({ view }: { view: TrendsView }) {
  const [hidden, toggle] = useHiddenSeries();
  const legend = useMemo(
    () => view.series.map((s) => ({ key: s.key, label: s.label, colour: s.colour, dashed: s.period === 'previous' })),
    [view.series],
  );
  return (
    <>
      <Sized>{(width) => <SeriesPlot view={view} hidden={hidden} width={width} />}</Sized>
      <SeriesLegend items={legend} hidden={hidden} onToggle={toggle} />
    </>
  );
}
