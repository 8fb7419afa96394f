import type { PluginMetrics } from '@/contract/plugin-configs';

/** Delivered and failed events: totals, and the last 24 hours as a small bar chart (the numbers are in its label). */
export function MetricsPanel({ metrics }: { metrics: PluginMetrics | null | undefined }) {
  if (!metrics) return <p className="text-sm">No deliveries yet.</p>;
  const max = Math.max(1, ...metrics.hours.map((h) => h.delivered + h.failed));
  const last24 = metrics.hours.reduce((s, h) => ({ delivered: s.delivered + h.delivered, failed: s.failed + h.failed }), { delivered: 0, failed: 0 });
  return (
    <div className="space-y-3">
      <dl className="flex flex-wrap gap-6 text-sm">
        <div><dt className="text-gray-700 dark:text-gray-300">Delivered</dt><dd className="text-2xl font-semibold tabular-nums" data-testid="metric-delivered">{metrics.delivered}</dd></div>
        <div><dt className="text-gray-700 dark:text-gray-300">Failed</dt><dd className="text-2xl font-semibold tabular-nums" data-testid="metric-failed">{metrics.failed}</dd></div>
        <div><dt className="text-gray-700 dark:text-gray-300">Retries</dt><dd className="text-2xl font-semibold tabular-nums">{metrics.retried}</dd></div>
      </dl>
      <svg viewBox="0 0 240 60" className="h-20 w-full max-w-xl" role="img"
        aria-label={`Last 24 hours: ${last24.delivered} delivered, ${last24.failed} failed`}>
        {metrics.hours.map((h, i) => {
          const total = ((h.delivered + h.failed) / max) * 56;
          const failed = (h.failed / max) * 56;
          return (
            <g key={h.hour}>
              <rect x={i * 10 + 1} y={60 - total} width={8} height={total - failed} className="fill-indigo-500" />
              <rect x={i * 10 + 1} y={60 - failed} width={8} height={failed} className="fill-red-500" />
            </g>
          );
        })}
      </svg>
      <p className="text-xs text-gray-600 dark:text-gray-400">Bars: events per hour, delivered (blue) and failed (red).</p>
    </div>
  );
}
