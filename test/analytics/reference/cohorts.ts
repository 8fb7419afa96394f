import type { CohortCriteriaGroup, CohortCriterion, CohortFilters } from '../../../src/contract/cohorts.ts';
import { windowStart } from '../../../server/analytics/query/cohorts.ts';
import type { ReferenceEvent } from '../../../server/analytics/types.ts';
import { matchesFilter } from './filters.ts';

/**
 * Cohort membership in plain TypeScript (the rules in server/analytics/query/cohorts.ts): every
 * person of the events is tested against the criteria with loops over their events. The
 * window's start is the engine's `windowStart` (dates are shared, as the other references share
 * the date parser); counting, comparing and combining are done here again.
 */

export interface RefPerson {
  id: string;
  properties: Record<string, unknown>;
}

/** The persons of an event set (each with the properties its events carry). */
export function personsOf(events: readonly ReferenceEvent[]): RefPerson[] {
  const byId = new Map<string, RefPerson>();
  for (const e of events) byId.set(e.person_id, { id: e.person_id, properties: e.person_properties });
  return [...byId.values()];
}

function holds(
  c: CohortCriterion | CohortCriteriaGroup,
  person: RefPerson,
  events: readonly ReferenceEvent[],
  now: number,
): boolean {
  if ('values' in c) {
    const results = c.values.map((v) => holds(v, person, events, now));
    return c.type === 'OR' ? results.length === 0 || results.some(Boolean) : results.every(Boolean);
  }
  let result: boolean;
  if (c.type === 'person') {
    const asEvent = { person_properties: person.properties, properties: {} } as ReferenceEvent;
    result = matchesFilter(asEvent, { key: c.key, value: c.value, operator: c.operator, type: 'person' });
  } else {
    const since = windowStart(now, c.time_value, c.time_interval);
    let count = 0;
    for (const e of events)
      if (e.person_id === person.id && e.event === c.key && e.timestamp >= since && e.timestamp <= now) count += 1;
    const wanted = c.operator_value ?? 1;
    if (c.value === 'performed_event') result = count > 0;
    else if (c.value === 'not_performed_event') result = count === 0;
    else {
      const op = c.operator ?? 'gte';
      result =
        op === 'gte'
          ? count >= wanted
          : op === 'lte'
            ? count <= wanted
            : op === 'gt'
              ? count > wanted
              : op === 'lt'
                ? count < wanted
                : count === wanted;
    }
  }
  return c.negation ? !result : result;
}

/** The ids of the persons in a dynamic cohort, computed at `now`. */
export function referenceCohortMembers(
  filters: CohortFilters,
  events: readonly ReferenceEvent[],
  now: number,
): Set<string> {
  return new Set(
    personsOf(events)
      .filter((p) => holds(filters.properties, p, events, now))
      .map((p) => p.id),
  );
}
