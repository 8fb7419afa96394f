import { VALUELESS_OPERATORS, type PropertyOperator } from '@/contract/analytics-filters';
import type { CohortFilters, CohortTimeInterval } from '@/contract/cohorts';

/**
 * The criteria editor's rows: one per criterion, all matched (AND) or any (OR). A row is a person
 * property, or an event the person did (at least `count` times) or did not do in the last
 * `within` units. Pure functions, so the form only shows them.
 */

export type CriterionKind = 'person' | 'performed' | 'not_performed';
/** One row of the criteria (a field array's item: react-hook-form gives it its key). */
export interface CriterionRow {
  kind: CriterionKind;
  /** Person property name, or event name. */
  key: string;
  operator: PropertyOperator;
  value: string;
  /** At least this many times (performed only). */
  count: string;
  within: string;
  unit: CohortTimeInterval;
}
export type CriterionField = keyof CriterionRow;
export type Match = 'AND' | 'OR';

export const newCriterion = (kind: CriterionKind = 'person'): CriterionRow => ({
  kind,
  key: '',
  operator: 'exact',
  value: '',
  count: '1',
  within: '30',
  unit: 'day',
});

/** The fields a row shows for its kind (and operator): where its errors can be seen. */
export function shownFields(row: CriterionRow): CriterionField[] {
  if (row.kind === 'person')
    return VALUELESS_OPERATORS.includes(row.operator) ? ['key', 'operator'] : ['key', 'operator', 'value'];
  return row.kind === 'performed' ? ['key', 'count', 'within', 'unit'] : ['key', 'within', 'unit'];
}

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/** The API's `filters` for the rows (every row is sent, so the API's index is the row's). */
export function toFilters(match: Match, rows: readonly CriterionRow[]): CohortFilters {
  return {
    properties: {
      type: match,
      values: rows.map((r) => {
        if (r.kind === 'person') {
          const valueless = VALUELESS_OPERATORS.includes(r.operator);
          return {
            type: 'person' as const,
            key: r.key.trim(),
            operator: r.operator,
            negation: false,
            ...(valueless ? {} : { value: r.value }),
          };
        }
        const window = { time_value: whole(r.within), time_interval: r.unit };
        const base = {
          type: 'behavioral' as const,
          key: r.key.trim(),
          event_type: 'events' as const,
          negation: false,
          ...window,
        };
        if (r.kind === 'not_performed') return { ...base, value: 'not_performed_event' as const };
        const count = whole(r.count);
        return count === 1
          ? { ...base, value: 'performed_event' as const }
          : { ...base, value: 'performed_event_multiple' as const, operator: 'gte' as const, operator_value: count };
      }),
    },
  };
}

/** A criterion's API field → the row's field that shows it (a behavioural `value` or `operator` is the row's event or count). */
const PERSON_FIELDS: Record<string, CriterionField> = { key: 'key', operator: 'operator', value: 'value' };
const BEHAVIORAL_FIELDS: Record<string, CriterionField> = {
  key: 'key',
  value: 'key',
  operator: 'count',
  operator_value: 'count',
  time_value: 'within',
  time_interval: 'unit',
};

/**
 * The row and field an attr names (`filters__properties__values__2__time_value` → [2, 'within']),
 * else null. An attr naming the row alone, or a field the row does not show, lands on its key.
 */
export function criterionFieldOf(attr: string, rows: readonly CriterionRow[]): [number, CriterionField] | null {
  const [filters, properties, values, index, name] = attr.split('__');
  if (filters !== 'filters' || properties !== 'properties' || values !== 'values' || !/^\d+$/.test(index ?? ''))
    return null;
  const row = rows[Number(index)];
  if (!row) return null;
  const field = (row.kind === 'person' ? PERSON_FIELDS : BEHAVIORAL_FIELDS)[name ?? ''];
  return [Number(index), field && shownFields(row).includes(field) ? field : 'key'];
}
