import { OPERATOR_WORDS } from '@/contract/analytics-filters';
import { VALUELESS_OPERATORS, type PropertyGroupInput, type PropertyOperator } from '@/contract/analytics-params';
import { valueList, valueText } from './property-value-input';

/**
 * The filter editor's own state: rows may be incomplete (no key yet, no value yet) and are kept
 * here; only complete filters reach the parameters (`toGroup`). Pure functions, tested alone.
 */

export type GroupType = 'AND' | 'OR';

export interface FilterRow {
  uid: string;
  /** A property's name; for a cohort, its id as text; for `hogql`, the expression. */
  key: string | null;
  type: 'event' | 'person' | 'cohort' | 'group' | 'session' | 'hogql';
  /** The group type whose property it is (`type: group`). */
  group_type_index?: number | undefined;
  /** A property operator; a cohort's is `in` or `not_in`. */
  operator: PropertyOperator | CohortOperator;
  value: unknown;
}
export type CohortOperator = 'in' | 'not_in';
export const COHORT_OPERATOR_WORDS: Record<CohortOperator, string> = { in: 'in cohort', not_in: 'not in cohort' };
const isCohortOperator = (op: unknown): op is CohortOperator => op === 'in' || op === 'not_in';

export interface FilterGroup {
  uid: string;
  type: GroupType;
  rows: FilterRow[];
}

export type FilterEntry = FilterRow | FilterGroup;

export interface FilterState {
  type: GroupType;
  entries: FilterEntry[];
}

/** Every operator in words, in the order the select lists them. */
export { OPERATOR_WORDS };

let counter = 0;
export const newUid = (prefix = 'f') => `${prefix}${++counter}`;

export const isGroup = (e: FilterEntry): e is FilterGroup => 'rows' in e;

export const emptyRow = (): FilterRow => ({
  uid: newUid(),
  key: null,
  type: 'event',
  operator: 'exact',
  value: undefined,
});

const hasValue = (v: unknown) => !(v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0));

const takesNoValue = (r: FilterRow) =>
  r.type === 'cohort' || r.type === 'hogql' || (VALUELESS_OPERATORS as readonly string[]).includes(r.operator);

/** A row is sent once it has a key (a cohort: its id; HogQL: an expression), and a value unless its operator takes none. */
export const isComplete = (r: FilterRow) =>
  r.key !== null && r.key.trim() !== '' && (takesNoValue(r) || hasValue(r.value));

type Filter = {
  key: string;
  type: FilterRow['type'];
  operator?: FilterRow['operator'];
  value?: unknown;
  group_type_index?: number;
};
const toFilter = (r: FilterRow): Filter => {
  // A HogQL filter is its expression alone (docs/hogql.md).
  if (r.type === 'hogql') return { key: r.key!, type: 'hogql' };
  if (r.type === 'cohort')
    return {
      key: 'id',
      type: 'cohort',
      operator: isCohortOperator(r.operator) ? r.operator : 'in',
      value: Number(r.key),
    };
  const filter: Filter = takesNoValue(r)
    ? { key: r.key!, type: r.type, operator: r.operator }
    : { key: r.key!, type: r.type, operator: r.operator, value: r.value };
  return r.type === 'group' ? { ...filter, group_type_index: r.group_type_index ?? 0 } : filter;
};

/** Where each row went in the emitted group: its `attr` path (`values__1__values__0`), or null while incomplete. */
export function emittedPaths(state: FilterState): Map<string, string> {
  const paths = new Map<string, string>();
  let top = 0;
  for (const entry of state.entries) {
    if (!isGroup(entry)) {
      if (isComplete(entry)) paths.set(entry.uid, `values__${top++}`);
      continue;
    }
    const complete = entry.rows.filter(isComplete);
    if (complete.length === 0) continue;
    const g = top++;
    paths.set(entry.uid, `values__${g}`);
    complete.forEach((r, i) => paths.set(r.uid, `values__${g}__values__${i}`));
  }
  return paths;
}

/** The complete filters as the contract's group; undefined when there are none. */
export function toGroup(state: FilterState): PropertyGroupInput | undefined {
  const values: PropertyGroupInput['values'] = [];
  for (const entry of state.entries) {
    if (!isGroup(entry)) {
      if (isComplete(entry)) values.push(toFilter(entry) as never);
      continue;
    }
    const inner = entry.rows.filter(isComplete).map(toFilter);
    if (inner.length) values.push({ type: entry.type, values: inner } as never);
  }
  return values.length ? { type: state.type, values } : undefined;
}

const rowFrom = (v: Record<string, unknown>): FilterRow =>
  v.type === 'cohort'
    ? {
        uid: newUid(),
        key: v.value === undefined || v.value === null ? null : String(v.value as string | number),
        type: 'cohort',
        operator: v.operator === 'not_in' ? 'not_in' : 'in',
        value: undefined,
      }
    : {
        uid: newUid(),
        key: typeof v.key === 'string' ? v.key : null,
        type:
          v.type === 'person' || v.type === 'group' || v.type === 'session' || v.type === 'hogql' ? v.type : 'event',
        ...(v.type === 'group' && typeof v.group_type_index === 'number'
          ? { group_type_index: v.group_type_index }
          : {}),
        operator: (typeof v.operator === 'string' && v.operator in OPERATOR_WORDS
          ? v.operator
          : 'exact') as PropertyOperator,
        value: v.value,
      };

const asGroupType = (t: unknown): GroupType => (t === 'OR' ? 'OR' : 'AND');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The editor's state for a group from the parameters (a legacy flat list is an AND group). */
export function fromGroup(value: PropertyGroupInput | readonly unknown[] | undefined | null): FilterState {
  const group = Array.isArray(value) ? { type: 'AND', values: value } : value;
  if (!isRecord(group) || !Array.isArray(group.values)) return { type: 'AND', entries: [] };
  const entries: FilterEntry[] = [];
  for (const v of group.values as unknown[]) {
    if (!isRecord(v)) continue;
    if (Array.isArray(v.values)) {
      entries.push({ uid: newUid('g'), type: asGroupType(v.type), rows: v.values.filter(isRecord).map(rowFrom) });
    } else {
      entries.push(rowFrom(v));
    }
  }
  return { type: asGroupType(group.type), entries };
}

/** The value kept when the operator changes: lists for equals, one text or number otherwise, none for is set. */
export function valueForOperator(value: unknown, operator: PropertyOperator): unknown {
  if (VALUELESS_OPERATORS.includes(operator)) return undefined;
  if (operator === 'exact' || operator === 'is_not') {
    const list = valueList(value);
    return list.length ? list : undefined;
  }
  const text = valueText(value);
  if (operator === 'gt' || operator === 'lt') {
    const n = Number(text);
    return text.trim() === '' || Number.isNaN(n) ? undefined : n;
  }
  return text === '' ? undefined : text;
}
