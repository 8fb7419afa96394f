import type {
  FunnelParamsInput,
  PathParamsInput,
  RetentionParamsInput,
  TrendParamsInput,
} from '@/contract/analytics-params';
import type { BuilderKind, BuilderParams } from './builder-search';
import { FunnelsPanel } from './funnels-panel';
import type { PanelProps } from './panel-types';
import { PathsPanel } from './paths-panel';
import { RetentionPanel } from './retention-panel';
import { TrendsPanel } from './trends-panel';

/** The controls of the builder's kind. */
export function KindPanel<K extends BuilderKind>({ kind, ...props }: PanelProps<BuilderParams[K]> & { kind: K }) {
  switch (kind) {
    case 'trends':
      return <TrendsPanel {...(props as PanelProps<TrendParamsInput>)} />;
    case 'funnels':
      return <FunnelsPanel {...(props as PanelProps<FunnelParamsInput>)} />;
    case 'retention':
      return <RetentionPanel {...(props as PanelProps<RetentionParamsInput>)} />;
    default:
      return <PathsPanel {...(props as PanelProps<PathParamsInput>)} />;
  }
}
