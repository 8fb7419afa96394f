/** The chart kit's code: one import, shared by the lazy component and the preloads. */
export const loadInsightChart = () => import('./charts/insight-chart');
/** The displays drawn with recharts (pie, value bars, time to convert, retention, paths): their own chunk. */
export const loadRechartsChart = () => import('./charts/recharts-chart');
/** The world map display (react-simple-maps and the map's shapes): its own chunk, loaded only when shown. */
export const loadWorldMap = () => import('./charts/world-map');

/**
 * Starts loading the chart code: the routes' loaders call it beside the insight's fetch, so the
 * chart is not a second wait after the data. `all` adds the recharts displays (the builders,
 * where the display can change any moment).
 */
export function preloadInsightChart(all = false): void {
  void loadInsightChart();
  if (all) void loadRechartsChart();
}

