import { AnalyticsParamError } from './errors.ts';
import { hogqlTextSql } from './hogql/index.ts';
import { DEFAULT_COLUMNS, propertyText, SqlParams, type PropertyColumns } from './properties.ts';
import { isSessionProperty, SESSION_PROPERTIES, sessionTextSql } from './sessions.ts';
import { checkGroupType, groupPropertyText } from './groups.ts';

/**
 * The breakdowns trends and funnels support: an event or person property, a session property
 * (sessions.ts), a HogQL expression (docs/hogql.md) or a property of the event's group of type
 * `breakdown_group_type_index` (groups.ts), each read as text per event.
 */
export interface BreakdownSpec {
  key: string;
  type: 'event' | 'person' | 'session' | 'hogql' | 'group';
  /** The group type (`type: group`). */
  groupIndex?: number;
}

const SUPPORTED = ['event', 'person', 'session', 'hogql', 'group'] as const;

/**
 * The request's breakdown, checked (a 400 on `breakdown_type`, `breakdown` or
 * `breakdown_group_type_index`, which must be one of the project's `groupTypes`); null without one.
 */
export function breakdownOf(p: { breakdown?: unknown; breakdown_type: string; breakdown_group_type_index?: number | null | undefined }, groupTypes: readonly string[] = []): BreakdownSpec | null {
  if (p.breakdown === null || p.breakdown === undefined) return null;
  const type = SUPPORTED.find((t) => t === p.breakdown_type);
  if (!type) throw new AnalyticsParamError('breakdown_type', `Breakdown by ${p.breakdown_type} is not supported: use event, person, session, group or hogql.`);
  if (typeof p.breakdown !== 'string') {
    throw new AnalyticsParamError('breakdown', type === 'hogql' ? 'Enter a HogQL expression.' : 'Enter the name of a property.');
  }
  const spec: BreakdownSpec = { key: p.breakdown, type };
  if (type === 'group') {
    checkGroupType(p.breakdown_group_type_index, 'breakdown_group_type_index', groupTypes);
    spec.groupIndex = p.breakdown_group_type_index!;
  }
  if (type === 'session' && !isSessionProperty(spec.key)) {
    throw new AnalyticsParamError('breakdown', `"${spec.key}" is not a session property: use ${SESSION_PROPERTIES.join(', ')}.`);
  }
  // Compiled once here so that an expression outside the subset is a 400 before any SQL runs.
  if (type === 'hogql') hogqlTextSql(spec.key, new SqlParams(), 'breakdown');
  return spec;
}

/** What a breakdown's SQL needs joined: persons (`p`, and the overrides) or sessions (`ses`). */
export interface BreakdownSql {
  /** VARCHAR; NULL when the event has no value. */
  sql: string;
  person: boolean;
  session: boolean;
}

/** SQL text of the breakdown's value for the events `e` of a statement. */
export function breakdownValueSql(b: BreakdownSpec, params: SqlParams, cols: PropertyColumns = DEFAULT_COLUMNS): BreakdownSql {
  switch (b.type) {
    case 'event': case 'person': return { sql: propertyText(params, b.type, b.key, cols), person: b.type === 'person', session: false };
    case 'group': return { sql: groupPropertyText(params, b.groupIndex ?? 0, b.key), person: false, session: false };
    case 'session': return { sql: isSessionProperty(b.key) ? sessionTextSql(b.key, params) : 'NULL::VARCHAR', person: false, session: true };
    case 'hogql': {
      const c = hogqlTextSql(b.key, params, 'breakdown');
      return { sql: c.sql, person: c.person || c.personKey, session: false };
    }
  }
}
