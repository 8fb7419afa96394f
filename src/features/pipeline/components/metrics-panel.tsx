import type { PluginMetrics } from '@/contract/plugin-configs';
import { niceTicks } from '@/lib/scales';
import { formatCount } from '@/lib/numbers';

/** The chart's own coordinates: the SVG scales to its box (at most 448 px wide). */
const WIDTH = 360;
const HEIGHT = 150;
const PLOT = { top: 8, right: 8, bottom: 24, left: 40 } as const;

const hourLabel = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
/** The axis' words: the hour alone ("7 PM"), short enough for a label every 6 hours in a narrow column. */
const axisLabel = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric' });

/** Events per hour over the last 24 hours, delivered (indigo) stacked under failed (red), with a count axis and a time axis. */
function HourlyChart({ hours }: { hours: PluginMetrics['hours'] }) {
  const totals = hours.map((h) => h.delivered + h.failed);
  const ticks = niceTicks(0, Math.max(1, ...totals), 3).filter((tick) => Number.isInteger(tick));
  const top = ticks[ticks.length - 1] ?? 1;
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const bottom = HEIGHT - PLOT.bottom;
  const y = (value: number) => bottom - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(1, hours.length);
  const last24 = hours.reduce((s, h) => ({ delivered: s.delivered + h.delivered, failed: s.failed + h.failed }), {
    delivered: 0,
    failed: 0,
  });
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="w-full max-w-md"
      role="img"
      aria-label={`Events per hour over the last 24 hours: ${formatCount(last24.delivered)} delivered, ${formatCount(last24.failed)} failed`}
    >
      <g className="text-gray-700 dark:text-gray-300" fill="currentColor" fontSize={11}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PLOT.left}
              x2={WIDTH - PLOT.right}
              y1={y(tick)}
              y2={y(tick)}
              stroke="currentColor"
              strokeOpacity={tick === 0 ? 0.4 : 0.15}
              strokeDasharray={tick === 0 ? undefined : '3 3'}
            />
            <text x={PLOT.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {hours.map((h, i) =>
          i % 6 === 0 ? (
            <text
              key={h.hour}
              x={PLOT.left + i * slot + slot / 2}
              y={bottom + 16}
              textAnchor={i === 0 ? 'start' : 'middle'}
            >
              {axisLabel(h.hour)}
            </text>
          ) : null,
        )}
      </g>
      {hours.map((h, i) => (
        <g key={h.hour}>
          <rect
            x={PLOT.left + i * slot + 1}
            y={y(h.delivered + h.failed)}
            width={slot - 2}
            height={y(h.failed) - y(h.delivered + h.failed)}
            className="fill-indigo-500"
          >
            <title>{`${hourLabel(h.hour)}: ${formatCount(h.delivered)} delivered, ${formatCount(h.failed)} failed`}</title>
          </rect>
          <rect
            x={PLOT.left + i * slot + 1}
            y={y(h.failed)}
            width={slot - 2}
            height={bottom - y(h.failed)}
            className="fill-red-500"
          />
        </g>
      ))}
    </svg>
  );
}

/** Delivered and failed events: totals, and the last 24 hours as a small bar chart (the numbers are in its label). */
export function MetricsPanel({ metrics }: { metrics: PluginMetrics | null | undefined }) {
  if (!metrics) return <p className="text-sm">No deliveries yet.</p>;
  return (
    <div className="space-y-3">
      <dl className="flex flex-wrap gap-6 text-sm">
        <div>
          <dt className="text-gray-700 dark:text-gray-300">Delivered</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-testid="metric-delivered">
            {formatCount(metrics.delivered)}
          </dd>
        </div>
        <div>
          <dt className="text-gray-700 dark:text-gray-300">Failed</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-testid="metric-failed">
            {formatCount(metrics.failed)}
          </dd>
        </div>
        <div>
          <dt className="text-gray-700 dark:text-gray-300">Retries</dt>
          <dd className="text-2xl font-semibold tabular-nums">{metrics.retried}</dd>
        </div>
      </dl>
      <HourlyChart hours={metrics.hours} />
      <p className="text-xs text-gray-600 dark:text-gray-400">
        Events per hour, last 24 hours: delivered (indigo) and failed (red).
      </p>
    </div>
  );
}
