/** The chart kit's code (recharts): one import, shared by the lazy component and the preloads. */
export const loadInsightChart = () => import('./charts/insight-chart');
/** The world map display (react-simple-maps and the map's shapes): its own chunk, loaded only when shown. */
export const loadWorldMap = () => import('./charts/world-map');

/**
 * Starts loading the chart code: the routes' loaders call it beside the insight's fetch, so the
 * chart is not a second wait after the data.
 */
export function preloadInsightChart(): void {
  void loadInsightChart();
}
