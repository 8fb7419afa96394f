import { orderedEntities, type Entity, type RetentionEntity } from '../../src/contract/index.ts';
import type { Analysis } from './query.ts';

/**
 * The name an insight shows when it has none (`derived_name`), from its analysis, in the
 * production service's style: "Pageview count", "Sign up → Purchase".
 */

const EVENT_LABELS: Record<string, string> = {
  $pageview: 'Pageview',
  $pageleave: 'Pageleave',
  $autocapture: 'Autocapture',
  $screen: 'Screen',
  $identify: 'Identify',
  $groupidentify: 'Group identify',
};

const MATH_LABELS: Record<string, string> = {
  total: 'count',
  dau: 'unique users',
  weekly_active: 'weekly active users',
  monthly_active: 'monthly active users',
  unique_session: 'unique sessions',
};

type Named = Pick<Entity, 'id' | 'type'> & {
  name?: string | null | undefined;
  custom_name?: string | null | undefined;
};

/** A series' label: its custom name, else the event's (known events read as words), else the action's name. */
export function entityLabel(e: Named): string {
  if (e.custom_name) return e.custom_name;
  if (e.type === 'actions') return e.name || `Action ${String(e.id)}`;
  if (e.id === null) return 'All events';
  const id = String(e.id);
  return EVENT_LABELS[id] ?? e.name ?? id;
}

const mathLabel = (e: Entity) => MATH_LABELS[e.math] ?? `${e.math} of ${e.math_property ?? ''}`.trim();

export function derivedName(analysis: Analysis): string {
  switch (analysis.kind) {
    case 'TRENDS': {
      if (analysis.params.formula) return `Formula (${analysis.params.formula})`;
      return orderedEntities(analysis.params)
        .map((e) => `${entityLabel(e)} ${mathLabel(e)}`)
        .join(' & ');
    }
    case 'FUNNELS':
      return orderedEntities(analysis.params).map(entityLabel).join(' → ');
    case 'RETENTION': {
      const { target_entity: t, returning_entity: r } = analysis.params;
      const same = (a: RetentionEntity, b: RetentionEntity) => a.type === b.type && String(a.id) === String(b.id);
      return same(t, r) ? `${entityLabel(t)} retention` : `${entityLabel(t)} → ${entityLabel(r)} retention`;
    }
    case 'PATHS': {
      const { start_point: start, end_point: end } = analysis.params;
      if (start) return `User paths starting at ${start}`;
      if (end) return `User paths ending at ${end}`;
      return 'User paths';
    }
  }
}
