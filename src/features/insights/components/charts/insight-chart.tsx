import { Bar, BarChart, CartesianGrid, LabelList, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber, formatPercent, type ResultView } from '../result-model';

const COLOURS = ['#4f46e5', '#0891b2', '#d97706', '#dc2626', '#16a34a', '#9333ea', '#db2777', '#4b5563'];
const colour = (index: number) => COLOURS[index % COLOURS.length]!;

const axisProps = { tick: { fill: 'currentColor', fontSize: 12 }, stroke: 'currentColor' } as const;
const tooltipStyle = { background: 'var(--color-gray-900)', color: 'white', border: 'none', borderRadius: 6 } as const;
const HEIGHT = 300;

function TrendsChart({ view }: { view: Extract<ResultView, { type: 'trends' }> }) {
  if (view.display === 'number' || view.labels.length === 0) {
    if (view.display === 'number' && view.series.length === 1) {
      return <p className="py-10 text-center text-5xl font-semibold tabular-nums">{formatNumber(view.series[0]!.total)}</p>;
    }
    const data = view.series.map((series) => ({ label: series.label, value: series.total }));
    return (
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={data} margin={{ top: 16, right: 16, bottom: 8, left: 8 }} accessibilityLayer>
          <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} vertical={false} />
          <XAxis dataKey="label" {...axisProps} />
          <YAxis {...axisProps} />
          <Tooltip contentStyle={tooltipStyle} cursor={{ fillOpacity: 0.1 }} />
          <Bar dataKey="value" name="Value" fill={colour(0)} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    );
  }
  const data = view.labels.map((label, row) => {
    const point: Record<string, string | number> = { label };
    view.series.forEach((series, index) => (point[`s${index}`] = series.data[row] ?? 0));
    return point;
  });
  const Chart = view.display === 'bar' ? BarChart : LineChart;
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <Chart data={data} margin={{ top: 16, right: 16, bottom: 8, left: 8 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} vertical={false} />
        <XAxis dataKey="label" {...axisProps} minTickGap={16} />
        <YAxis {...axisProps} />
        <Tooltip contentStyle={tooltipStyle} cursor={{ fillOpacity: 0.1 }} />
        <Legend />
        {view.series.map((series, index) =>
          view.display === 'bar' ? (
            <Bar key={index} dataKey={`s${index}`} name={series.label} fill={colour(index)} isAnimationActive={false} />
          ) : (
            <Line key={index} dataKey={`s${index}`} name={series.label} stroke={colour(index)} dot={false} strokeWidth={2} isAnimationActive={false} />
          ),
        )}
      </Chart>
    </ResponsiveContainer>
  );
}

/** One bar per category (funnel steps, time-to-convert bins), each optionally labelled above. */
function CategoryBars({ data, name, fill, label }: { data: Array<{ label: string; count: number; note?: string }>; name: string; fill: string; label?: boolean }) {
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <BarChart data={data} margin={{ top: 24, right: 16, bottom: 8, left: 8 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} vertical={false} />
        <XAxis dataKey="label" {...axisProps} />
        <YAxis allowDecimals={false} {...axisProps} />
        <Tooltip contentStyle={tooltipStyle} cursor={{ fillOpacity: 0.1 }} />
        <Legend />
        <Bar dataKey="count" name={name} fill={fill} isAnimationActive={false}>
          {label ? <LabelList dataKey="note" position="top" fill="currentColor" fontSize={12} /> : null}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}

/**
 * The chart of an insight's result (recharts: loaded lazily, only on insight routes). Retention
 * and paths are read as their table (see ResultTable), which the page always shows under this.
 */
export default function InsightChart({ view }: { view: ResultView }) {
  switch (view.type) {
    case 'trends':
      return <TrendsChart view={view} />;
    case 'funnel':
      // Each step's bar says its conversion from the first step.
      return (
        <CategoryBars
          name="Persons"
          fill={colour(0)}
          label
          data={view.steps.map((step, index) => ({ label: `${index + 1}. ${step.name}`, count: step.count, note: formatPercent(step.conversion) }))}
        />
      );
    case 'time-to-convert':
      return <CategoryBars name="Persons" fill={colour(1)} data={view.bins.map((bin) => ({ label: `${formatNumber(bin.seconds)} s`, count: bin.count }))} />;
    default:
      return null;
  }
}
