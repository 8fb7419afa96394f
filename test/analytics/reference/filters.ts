import { parseHogql } from '../../../server/analytics/hogql/parser.ts';
import type { AnalyticsProject, ReferenceEvent } from '../../../server/analytics/types.ts';
import { holds, type RefEnv } from './hogql.ts';
import { sessionOf, sessionText, type RefSession } from './sessions.ts';
import { groupPropertiesOf, type RefGroups } from './groups.ts';

/**
 * Property filters in plain TypeScript: the obviously-correct reading of the rules documented in
 * server/analytics/query/filters.ts. A property's value is its text (strings as they are, numbers
 * and booleans as JSON text); missing and null are "not set".
 */

export interface RefFilter {
  key: string;
  value?: unknown;
  operator: string;
  type: 'event' | 'person' | string;
  group_type_index?: number | null | undefined;
}
export interface RefGroup {
  type: 'AND' | 'OR';
  values: Array<RefFilter | RefGroup>;
}

/** The text of a property, or null when it is not set. */
export function textOf(properties: Record<string, unknown>, key: string): string | null {
  if (!Object.prototype.hasOwnProperty.call(properties, key)) return null;
  const v = properties[key];
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The number of a property: a JSON number or numeric text; else null. */
export function numberOf(properties: Record<string, unknown>, key: string): number | null {
  const t = textOf(properties, key);
  if (t === null) return null;
  if (!/^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(t)) return null;
  return Number(t);
}

const valueText = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/**
 * What session and HogQL filters read besides the event: the sessions of the whole event set
 * (sessions.ts) and the HogQL environment. Without it they match nothing.
 */
export interface FilterContext {
  sessions: Map<string, RefSession>;
  env: RefEnv;
  /** Cohort id → the ids of its persons: what cohort filters read (an unknown cohort holds nobody). */
  cohorts?: ReadonlyMap<number, ReadonlySet<string>>;
  /** The project's groups: what group filters read (without them no group has properties). */
  groups?: RefGroups;
}

/** The number DuckDB's TRY_CAST gives for a text (as numberOf). */
const numberOfText = (t: string | null) =>
  t !== null && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(t) ? Number(t) : null;

export function matchesFilter(event: ReferenceEvent, f: RefFilter, ctx?: FilterContext): boolean {
  if (f.type === 'hogql') return ctx !== undefined && holds(parseHogql(f.key), event, ctx.env);
  if (f.type === 'cohort') {
    const member = ctx?.cohorts?.get(Number(f.value))?.has(event.person_id) ?? false;
    return f.operator === 'not_in' ? !member : member;
  }
  let text: string | null;
  let number: () => number | null;
  if (f.type === 'session') {
    const session = ctx ? sessionOf(ctx.sessions, event) : null;
    if (session === null) return false;
    text = sessionText(session, f.key);
    number = () => numberOfText(text);
  } else {
    const props =
      f.type === 'person'
        ? event.person_properties
        : f.type === 'group'
          ? ctx?.groups
            ? groupPropertiesOf(event, ctx.groups, f.group_type_index ?? -1)
            : {}
          : event.properties;
    text = textOf(props, f.key);
    number = () => numberOf(props, f.key);
  }
  const values = list(f.value).map(valueText);
  switch (f.operator) {
    case 'exact':
      return text !== null && values.includes(text);
    case 'is_not':
      return text === null || !values.includes(text);
    case 'icontains':
      return text !== null && values.some((v) => text.toLowerCase().includes(v.toLowerCase()));
    case 'not_icontains':
      return text === null || !values.some((v) => text.toLowerCase().includes(v.toLowerCase()));
    case 'regex':
      return text !== null && values.some((v) => new RegExp(v).test(text));
    case 'not_regex':
      return text === null || !values.some((v) => new RegExp(v).test(text));
    case 'gt': {
      const n = number();
      return n !== null && n > Number(values[0]);
    }
    case 'lt': {
      const n = number();
      return n !== null && n < Number(values[0]);
    }
    case 'is_set':
      return text !== null;
    case 'is_not_set':
      return text === null;
    default:
      return false;
  }
}

export function matchesGroup(event: ReferenceEvent, group: RefGroup | undefined | null, ctx?: FilterContext): boolean {
  if (!group || group.values.length === 0) return true;
  const results = group.values.map((v) => ('values' in v ? matchesGroup(event, v, ctx) : matchesFilter(event, v, ctx)));
  return group.type === 'OR' ? results.some(Boolean) : results.every(Boolean);
}

export function matchesTestAccounts(
  event: ReferenceEvent,
  project: AnalyticsProject,
  enabled: boolean | undefined,
): boolean {
  if (!enabled) return true;
  return project.test_account_filters.every((f) => matchesFilter(event, f));
}
