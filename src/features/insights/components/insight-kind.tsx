import { ChartLine, Filter, Grid3x3, Route as PathIcon, type LucideIcon } from 'lucide-react';
import type { Insight, InsightKind } from '@/contract/insights';

export type { InsightKind };

const KINDS: Record<InsightKind, { label: string; icon: LucideIcon }> = {
  TRENDS: { label: 'Trends', icon: ChartLine },
  FUNNELS: { label: 'Funnel', icon: Filter },
  RETENTION: { label: 'Retention', icon: Grid3x3 },
  PATHS: { label: 'Paths', icon: PathIcon },
};

const QUERY_KINDS: Record<string, InsightKind> = {
  TrendsQuery: 'TRENDS',
  FunnelsQuery: 'FUNNELS',
  RetentionQuery: 'RETENTION',
  PathsQuery: 'PATHS',
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The kind of analysis an insight is, from its legacy `filters.insight` or its query node. */
export function insightKind(insight: Pick<Insight, 'filters' | 'query'>): InsightKind {
  const legacy = insight.filters.insight;
  if (typeof legacy === 'string' && legacy in KINDS) return legacy as InsightKind;
  const query = insight.query;
  const node = isRecord(query) && query.kind === 'InsightVizNode' && isRecord(query.source) ? query.source : query;
  if (isRecord(node) && typeof node.kind === 'string' && node.kind in QUERY_KINDS) return QUERY_KINDS[node.kind]!;
  return 'TRENDS';
}

export function kindLabel(kind: InsightKind): string {
  return KINDS[kind].label;
}

/** The kind's icon with its name for assistive technology (and as a tooltip). */
export function KindIcon({ kind }: { kind: InsightKind }) {
  const { label, icon: Icon } = KINDS[kind];
  return (
    <span title={label} className="inline-flex shrink-0 text-gray-600 dark:text-gray-400">
      <Icon aria-hidden="true" className="size-4" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
