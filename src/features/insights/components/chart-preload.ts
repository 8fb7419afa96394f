import { preloadable } from '@/lib/preloadable';
import { rechartsChart } from './charts/recharts-slot';

/**
 * The chart kit's code (line, bar, number, funnel steps): one import, shared by the component
 * and the preloads; drawn at once when a preload has brought it (no suspense on the way).
 */
export const insightChart = preloadable(() => import('./charts/insight-chart'));
/** The world map display (react-simple-maps and the map's shapes): its own chunk, loaded only when shown. */
export const worldMap = preloadable(() => import('./charts/world-map'));

/**
 * Starts loading the chart code: the routes' loaders call it beside the insight's fetch, so the
 * chart is not a second wait after the data. `all` adds the recharts displays (the builders,
 * where the display can change any moment).
 */
export function preloadInsightChart(all = false): void {
  void insightChart.load();
  if (all) void rechartsChart.load();
}

/** The insight queries (with the insight contract): the insight route's loader imports them, the list warms them. */
export const loadInsightQueries = () => import('../api/insights.queries');
