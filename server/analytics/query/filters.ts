import type { PropertyFilter, PropertyGroup } from '../../../src/contract/analytics.ts';
import {
  DEFAULT_COLUMNS,
  propertyNumber,
  propertyText,
  SqlParams,
  valueText,
  type PropertyColumns,
} from './properties.ts';
import { EVENT_COLUMNS } from '../hogql/compile.ts';
import { AnalyticsParamError } from '../errors.ts';
import { hogqlSql } from '../hogql/index.ts';
import { HAS_SESSION_SQL, isSessionProperty, SESSION_PROPERTIES, sessionTextSql, sessionValueSql } from './sessions.ts';
import { PERSON_INT_KEY_SQL } from '../store/schema.ts';
import type { AnalyticsProject, CohortLookup } from '../types.ts';
import type { SqlRunner } from '../store/db-types.ts';
import { cohortIdOf } from '../../../src/contract/analytics-filters.ts';
import { checkGroupType, groupPropertyText } from './groups.ts';

/**
 * Property filters → an SQL boolean over the event's (`cols.event`) and the person's
 * (`cols.person`) JSON properties. Keys and values are bound; only fixed SQL text is written.
 *
 * Semantics (shared with the reference implementation in test/analytics/reference/filters.ts):
 * a property's value is its text (`json_extract_string`); missing and JSON null are "not set".
 * - exact / is_not: text equals one of the values (a list value = any of them); `is_not` also
 *   matches a property that is not set (as the production service, where missing reads as '').
 * - icontains / not_icontains: case-insensitive substring; `not_icontains` matches "not set".
 * - regex / not_regex: RE2 search (partial match); `not_regex` matches "not set".
 * - gt / lt: numeric comparison; a value that is not a number never matches.
 * - is_set / is_not_set: the value is / is not set.
 * An empty group (AND or OR) constrains nothing.
 * `type: session` reads a session property of the event's session (sessions.ts) with the same
 * operators (durations and counts as their number's text), and is false for an event without a
 * session; `type: hogql` is a HogQL condition in `key` (docs/hogql.md), null counting as false.
 * `type: cohort` (`value` the cohort id): the event's person (after merges) is (`in`, or
 * `exact`) or is not (`not_in`) among the cohort's persons as last computed (cohorts.ts): a
 * semi-join on the person's integer key, which needs the overrides joined as `ov`.
 * `type: group` reads a property of the event's group of type `group_type_index` (groups.ts),
 * as an event property is read: an event without that group has it "not set".
 */

/** A filter of the contract's shape (operators outside the list never match). */
export type FilterLike = {
  key: string;
  operator: PropertyFilter['operator'] | (string & {});
  type: PropertyFilter['type'] | (string & {});
  value?: unknown;
  group_type_index?: number | null | undefined;
};
type GroupLike = { type: 'AND' | 'OR'; values: ReadonlyArray<FilterLike | GroupLike> };

export interface FilterSql {
  sql: string;
  /** Whether it reads person properties (the query must join persons). */
  person: boolean;
  /** Whether it reads session properties (the query must join sessions.ts's `ses`). */
  session?: boolean;
  /** Whether it reads the person's integer key (a cohort filter: the query must join the overrides `ov`). */
  personKey?: boolean;
}

const isGroup = (v: FilterLike | GroupLike): v is GroupLike => 'values' in v && Array.isArray((v as GroupLike).values);
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** One filter → SQL. */
export function propertyFilterSql(f: FilterLike, params: SqlParams, cols: PropertyColumns = DEFAULT_COLUMNS): string {
  if (f.type === 'cohort') {
    const id = cohortIdOf(f.value);
    if (id === null) return 'false';
    // Cohort ids are unique across projects; the analyses accept only their project's (regexPatterns).
    const members = `${PERSON_INT_KEY_SQL} IN (SELECT cp.person_key FROM cohort_people cp WHERE cp.cohort_id = ${params.add(id)} AND cp.person_key IS NOT NULL)`;
    return f.operator === 'not_in' ? `coalesce(NOT (${members}), true)` : `coalesce(${members}, false)`;
  }
  if (f.type === 'group') {
    const index = f.group_type_index;
    if (typeof index !== 'number' || params.groupTypes[index] === undefined) return 'false';
    const text = () => groupPropertyText(params, index, f.key);
    return operatorSql(f, params, text, () => `TRY_CAST(${text()} AS DOUBLE)`);
  }
  if (f.type === 'hogql')
    return hogqlSql(f.key, 'boolean', params, 'properties', {
      ...EVENT_COLUMNS,
      event: cols.event,
      person: cols.person,
    }).sql;
  if (f.type === 'session') {
    if (!isSessionProperty(f.key)) return 'false';
    const key = f.key;
    const numeric = sessionValueSql(key);
    const sql = operatorSql(
      f,
      params,
      () => sessionTextSql(key, params),
      () => (numeric.numeric ? numeric.sql : `TRY_CAST(${numeric.sql} AS DOUBLE)`),
    );
    return `(${HAS_SESSION_SQL} AND ${sql})`;
  }
  const source = f.type === 'person' ? 'person' : 'event';
  return operatorSql(
    f,
    params,
    () => propertyText(params, source, f.key, cols),
    () => propertyNumber(params, source, f.key, cols),
  );
}

/** A filter's operator over a value's SQL text (`text`) and number (`number`). */
function operatorSql(f: FilterLike, params: SqlParams, text: () => string, number: () => string): string {
  const values = () => asList(f.value).map((v) => params.add(valueText(v)));
  const anyOf = (one: (ref: string) => string) => {
    const parts = values().map(one);
    return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
  };
  switch (f.operator) {
    case 'exact':
      return `coalesce(${text()} IN (${values().join(', ')}), false)`;
    case 'is_not':
      return `coalesce(${text()} NOT IN (${values().join(', ')}), true)`;
    case 'icontains': {
      const t = text();
      return `coalesce(${anyOf((r) => `contains(lower(${t}), lower(${r}))`)}, false)`;
    }
    case 'not_icontains': {
      const t = text();
      return `coalesce(NOT ${anyOf((r) => `contains(lower(${t}), lower(${r}))`)}, true)`;
    }
    case 'regex': {
      const t = text();
      return `coalesce(${anyOf((r) => `regexp_matches(${t}, ${r})`)}, false)`;
    }
    case 'not_regex': {
      const t = text();
      return `coalesce(NOT ${anyOf((r) => `regexp_matches(${t}, ${r})`)}, true)`;
    }
    case 'gt':
    case 'lt': {
      const n = Number(asList(f.value)[0]);
      if (!Number.isFinite(n)) return 'false';
      // Bound as text and cast: a JS number past 2^63 (1e20) would be bound as an overflowing BIGINT.
      return `coalesce(${number()} ${f.operator === 'gt' ? '>' : '<'} ${params.add(String(n))}::DOUBLE, false)`;
    }
    case 'is_set':
      return `(${text()} IS NOT NULL)`;
    case 'is_not_set':
      return `(${text()} IS NULL)`;
    default:
      return 'false';
  }
}

function groupSql(group: GroupLike, params: SqlParams, cols: PropertyColumns): string {
  const parts = group.values.map((v) => (isGroup(v) ? groupSql(v, params, cols) : propertyFilterSql(v, params, cols)));
  if (parts.length === 0) return 'true';
  return `(${parts.join(group.type === 'OR' ? ' OR ' : ' AND ')})`;
}

/** Whether a HogQL condition reads the person (its properties or id). */
function hogqlReadsPerson(expr: string): boolean {
  try {
    const c = hogqlSql(expr, 'boolean', new SqlParams(), 'properties');
    return c.person || c.personKey;
  } catch {
    return false;
  }
}

function readsPerson(group: GroupLike): boolean {
  return group.values.some((v) =>
    isGroup(v) ? readsPerson(v) : v.type === 'person' || (v.type === 'hogql' && hogqlReadsPerson(v.key)),
  );
}

function readsSession(group: GroupLike): boolean {
  return group.values.some((v) => (isGroup(v) ? readsSession(v) : v.type === 'session'));
}

function readsCohort(group: GroupLike): boolean {
  return group.values.some((v) => (isGroup(v) ? readsCohort(v) : v.type === 'cohort'));
}

/** A property group (or none) → SQL; `true` when it constrains nothing. */
export function propertyGroupSql(
  group: PropertyGroup | GroupLike | undefined | null,
  params: SqlParams,
  cols: PropertyColumns = DEFAULT_COLUMNS,
): FilterSql {
  if (!group || group.values.length === 0) return { sql: 'true', person: false };
  const g = group as GroupLike;
  return {
    sql: groupSql(g, params, cols),
    person: readsPerson(g),
    session: readsSession(g),
    personKey: readsCohort(g),
  };
}

/** `filter_test_accounts: true` → the project's test account filters, all of them (AND). */
export function testAccountSql(
  project: AnalyticsProject,
  enabled: boolean | undefined,
  params: SqlParams,
  cols: PropertyColumns = DEFAULT_COLUMNS,
): FilterSql {
  if (!enabled) return { sql: 'true', person: false };
  return propertyGroupSql({ type: 'AND', values: project.test_account_filters }, params, cols);
}

/** Several filter fragments joined with AND. */
export function andAll(...parts: FilterSql[]): FilterSql {
  const sql = parts.map((p) => p.sql).filter((s) => s !== 'true');
  return {
    sql: sql.length === 0 ? 'true' : sql.join(' AND '),
    person: parts.some((p) => p.person),
    session: parts.some((p) => p.session),
    personKey: parts.some((p) => p.personKey),
  };
}

/** A filter value the engine cannot use, reported as a 400 on `attr`. */
export class FilterParamError extends AnalyticsParamError {}

/**
 * Regex patterns of a group, with the attr path of each (`properties__values__0__value`).
 * Checks the group's HogQL conditions and session keys on the way (a 400 on their `key`), and
 * that each cohort filter names a live cohort of the project (`cohorts`; a 400 on its `value`):
 * every engine walks its groups here before it builds SQL. A group filter's type must be one of
 * the project's `groupTypes` (a 400 on its `group_type_index`).
 */
export function regexPatterns(
  group: PropertyGroup | GroupLike | undefined | null,
  attr: string,
  cohorts?: CohortLookup,
  groupTypes: readonly string[] = [],
): { pattern: string; attr: string }[] {
  if (!group) return [];
  const out: { pattern: string; attr: string }[] = [];
  (group as GroupLike).values.forEach((v, i) => {
    const here = `${attr}__values__${i}`;
    if (!isGroup(v) && v.type === 'group') checkGroupType(v.group_type_index, `${here}__group_type_index`, groupTypes);
    if (isGroup(v)) out.push(...regexPatterns(v, here, cohorts, groupTypes));
    else if (v.type === 'cohort') checkCohort(v.value, `${here}__value`, cohorts);
    else if (v.type === 'hogql') hogqlSql(v.key, 'boolean', new SqlParams(), `${here}__key`);
    else if (v.type === 'session' && !isSessionProperty(v.key)) {
      throw new FilterParamError(
        `${here}__key`,
        `"${v.key}" is not a session property: use ${SESSION_PROPERTIES.join(', ')}.`,
      );
    } else if (v.operator === 'regex' || v.operator === 'not_regex') {
      for (const p of asList(v.value)) out.push({ pattern: valueText(p), attr: `${here}__value` });
    }
  });
  return out;
}

/** A 400 on `attr` unless `value` is the id of a live cohort of the project; returns the cohort. */
export function checkCohort(
  value: unknown,
  attr: string,
  cohorts: CohortLookup | undefined,
): { id: number; name: string } {
  const id = cohortIdOf(value);
  const cohort = id === null ? null : (cohorts?.(id) ?? null);
  if (!cohort) throw new FilterParamError(attr, `Cohort ${JSON.stringify(value)} does not exist in this project.`);
  return cohort;
}

/**
 * Checks regex values with the database's own engine (RE2), so an invalid pattern is a 400 on
 * its parameter rather than a failed query. One tiny query per distinct pattern.
 */
export async function checkRegexes(db: SqlRunner, patterns: { pattern: string; attr: string }[]): Promise<void> {
  const seen = new Set<string>();
  for (const { pattern, attr } of patterns) {
    if (seen.has(pattern)) continue;
    seen.add(pattern);
    try {
      await db.all("SELECT regexp_matches('', $1) AS ok", [pattern]);
    } catch {
      throw new FilterParamError(attr, 'Enter a valid regular expression.');
    }
  }
}
