import { VALUELESS_OPERATORS, type PropertyOperator } from '@/contract/analytics-filters';
import type { CohortFilters, CohortTimeInterval } from '@/contract/cohorts';

/**
 * The criteria editor's own state: one row per criterion, all matched (AND) or any (OR). A row
 * is a person property, or an event the person did (at least `count` times) or did not do in
 * the last `within` units. Pure functions, so the form only shows them.
 */

export type CriterionKind = 'person' | 'performed' | 'not_performed';
export interface CriterionRow {
  uid: string;
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
export interface CriteriaState { match: 'AND' | 'OR'; rows: CriterionRow[] }

let counter = 0;
export const newCriterion = (kind: CriterionKind = 'person'): CriterionRow => ({
  uid: `c${++counter}`, kind, key: '', operator: 'exact', value: '', count: '1', within: '30', unit: 'day',
});

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/** The API's `filters` for the rows (the server checks them and names the field of a problem). */
export function toFilters(state: CriteriaState): CohortFilters {
  return {
    properties: {
      type: state.match,
      values: state.rows.map((r) => {
        if (r.kind === 'person') {
          const valueless = VALUELESS_OPERATORS.includes(r.operator);
          return { type: 'person' as const, key: r.key.trim(), operator: r.operator, negation: false, ...(valueless ? {} : { value: r.value }) };
        }
        const window = { time_value: whole(r.within), time_interval: r.unit };
        const base = { type: 'behavioral' as const, key: r.key.trim(), event_type: 'events' as const, negation: false, ...window };
        if (r.kind === 'not_performed') return { ...base, value: 'not_performed_event' as const };
        const count = whole(r.count);
        return count === 1
          ? { ...base, value: 'performed_event' as const }
          : { ...base, value: 'performed_event_multiple' as const, operator: 'gte' as const, operator_value: count };
      }),
    },
  };
}

/** Row `i`'s field that a 400's attr names (`filters__properties__values__2__time_value` → [2, 'within']), else null. */
export function rowFieldOf(attr: string | null | undefined): [number, keyof CriterionRow] | null {
  const m = /^filters__properties__values__(\d+)(?:__(\w+))?/.exec(attr ?? '');
  if (!m) return null;
  const field: Record<string, keyof CriterionRow> = {
    key: 'key', operator: 'operator', value: 'value', operator_value: 'count', time_value: 'within', time_interval: 'unit',
  };
  return [Number(m[1]), field[m[2] ?? ''] ?? 'key'];
}
