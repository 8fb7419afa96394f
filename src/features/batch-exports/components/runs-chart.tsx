import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BatchExportRun } from '@/contract/batch-exports';
import { STATUS_COLOURS, statusLabel, statusTone } from './labels';
import { formatCount } from '@/lib/numbers';
import { formatIntervalTime } from './run-format';

/** Where a run's interval starts on the time axis (ms). */
const intervalStart = (run: BatchExportRun) => Date.parse(run.data_interval_start ?? run.data_interval_end ?? '') || 0;

/** The bars: `runs` come newest first (by creation); reversed, then a stable sort by interval. */
export function runBars(runs: BatchExportRun[]) {
  return [...runs]
    .reverse()
    .sort((a, b) => intervalStart(a) - intervalStart(b))
    .map((run) => ({
      id: run.id,
      label: formatIntervalTime(run.data_interval_start ?? run.data_interval_end),
      // A failed run exported nothing: its bar shows the records of its interval, in the failure's colour.
      records: run.records_completed || run.records_total_count || 0,
      exported: run.records_completed ?? 0,
      status: statusLabel(run.status),
      // Each bar's own colour: recharts draws a data entry's `fill` (recharts 3 deprecates <Cell>).
      fill: STATUS_COLOURS[statusTone(run.status)],
    }));
}

/**
 * Records per run (those of its interval) in the order of their intervals, oldest first (a
 * backfill's runs come after newer ones; runs of one interval in the order they ran), each bar
 * coloured by the run's outcome. Loaded lazily (recharts).
 */
export default function RunsChart({ runs }: { runs: BatchExportRun[] }) {
  const data = runBars(runs);
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 28, left: 16 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} vertical={false} />
        <XAxis
          dataKey="label"
          tick={{ fill: 'currentColor', fontSize: 12 }}
          stroke="currentColor"
          label={{ value: 'Interval start', position: 'insideBottom', offset: -18, fill: 'currentColor', fontSize: 12 }}
        />
        <YAxis
          allowDecimals={false}
          tickFormatter={(value: number) => formatCount(value)}
          tick={{ fill: 'currentColor', fontSize: 12 }}
          stroke="currentColor"
          label={{ value: 'Records', angle: -90, position: 'insideLeft', fill: 'currentColor', fontSize: 12 }}
        />
        <Tooltip
          cursor={{ fillOpacity: 0.1 }}
          contentStyle={{ background: 'var(--color-gray-900)', color: 'white', border: 'none', borderRadius: 6 }}
          formatter={(value, _name, item) => {
            const { status, exported } = item.payload as { status: string; exported: number };
            return [`${formatCount(Number(value))} records, ${formatCount(exported)} exported`, status];
          }}
        />
        <Bar dataKey="records" name="Records" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
