import type { ProjectRow } from '../store/projects.ts';
import type { Store } from '../store/store.ts';
import type { AnalyticsProject } from './types.ts';

type Filter = AnalyticsProject['test_account_filters'][number];

const isFilter = (v: unknown): v is Filter => {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return typeof f.key === 'string' && typeof f.operator === 'string' && (f.type === 'event' || f.type === 'person');
};

/** Parses the stored JSON list; anything malformed is dropped rather than trusted. */
export function parseTestAccountFilters(text: string): Filter[] {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter(isFilter) : [];
  } catch {
    return [];
  }
}

/** What the analytics engines need to know about project `projectId`, or undefined when there is none. */
export function analyticsProject(store: Store, projectId: number): AnalyticsProject | undefined {
  const row = store.projects.get(projectId);
  return row && toAnalyticsProject(row);
}

/** The analytics view of a stored project row. */
export function toAnalyticsProject(row: ProjectRow): AnalyticsProject {
  return {
    id: row.id,
    timezone: row.timezone || 'UTC',
    week_start_day: row.week_start_day === 1 ? 1 : 0,
    test_account_filters: parseTestAccountFilters(row.test_account_filters),
  };
}
