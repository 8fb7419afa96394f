import type { Insight } from '@/contract/insights';

/** What an insight is called: its name, else the name derived from its query. */
export function insightTitle(insight: Pick<Insight, 'name' | 'derived_name'>): string {
  return insight.name?.trim() || insight.derived_name?.trim() || 'Untitled insight';
}
