import type { ResultView } from '../../lib/view-types';
import { BoldNumber } from './bold-number';
import { FunnelSteps, type OnFunnelPersons } from './funnel-steps';
import { RetentionCurve, TimeToConvertChart } from './kind-charts';
import { PathsSankey } from './paths-sankey';
import { TrendsChart } from './trends-chart';
import { PieView, ValueBars } from './value-charts';

export interface InsightChartProps {
  view: ResultView;
  onFunnelPersons?: OnFunnelPersons | undefined;
}

/**
 * The chart of an insight's result (recharts: loaded lazily, only on insight routes). The world
 * map is its own chunk (see insight-result.tsx); the table display has no chart.
 */
export default function InsightChart({ view, onFunnelPersons }: InsightChartProps) {
  switch (view.type) {
    case 'trends':
      switch (view.display) {
        case 'number':
          return <BoldNumber view={view} />;
        case 'pie':
          return <PieView view={view} />;
        case 'bar-value':
          return <ValueBars view={view} />;
        case 'line':
        case 'cumulative':
        case 'bar':
          return <TrendsChart view={view} />;
        default:
          return null;
      }
    case 'funnel':
      return <FunnelSteps view={view} onPersons={onFunnelPersons} />;
    case 'time-to-convert':
      return <TimeToConvertChart view={view} />;
    case 'retention':
      return <RetentionCurve view={view} />;
    case 'paths':
      return <PathsSankey view={view} />;
    default:
      return null;
  }
}
