import { memo } from 'react';
import type { ResultView } from '../../lib/view-types';
import { BoldNumber } from './bold-number';
import { FunnelSteps, type OnFunnelPersons } from './funnel-steps';
import { rechartsChart } from './recharts-slot';
import { TrendsChart } from './trends-chart';

// The chunk chart-preload.ts warms on the builders.
const RechartsChart = rechartsChart.Component;

export interface InsightChartProps {
  view: ResultView;
  onFunnelPersons?: OnFunnelPersons | undefined;
}

/**
 * The chart of an insight's result (loaded lazily, only on insight routes). Line, bar, number
 * and funnel steps are plain SVG and HTML, here; the recharts displays are a chunk of their own
 * (recharts-chart.tsx), and the world map another (see insight-result.tsx); the table display
 * has no chart. Memoised: a builder's pending edit re-renders the result around it (dimmed, busy)
 * while the chart's view stays the same.
 */
export default memo(function InsightChart({ view, onFunnelPersons }: InsightChartProps) {
  switch (view.type) {
    case 'trends':
      switch (view.display) {
        case 'number':
          return <BoldNumber view={view} />;
        case 'line':
        case 'cumulative':
        case 'area':
        case 'bar':
          return <TrendsChart view={view} />;
        case 'pie':
        case 'bar-value':
          return <RechartsChart view={view} />;
        default:
          return null;
      }
    case 'funnel':
      return <FunnelSteps view={view} onPersons={onFunnelPersons} />;
    case 'time-to-convert':
    case 'retention':
    case 'paths':
      return <RechartsChart view={view} />;
    default:
      return null;
  }
});
