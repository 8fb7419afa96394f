import type { ResultView } from '../../lib/view-types';
import { RetentionCurve, TimeToConvertChart } from './kind-charts';
import { PathsSankey } from './paths-sankey';
import { PieView, ValueBars } from './value-charts';

/**
 * The displays drawn with recharts (pie, value bars, time to convert, retention curve, paths):
 * their own chunk, so the common line and bar charts (plain SVG) never wait for recharts.
 */
export default function RechartsChart({ view }: { view: ResultView }) {
  switch (view.type) {
    case 'trends':
      return view.display === 'pie' ? (
        <PieView view={view} />
      ) : view.display === 'bar-value' ? (
        <ValueBars view={view} />
      ) : null;
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
