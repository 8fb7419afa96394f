import type {
  CohortBehavioralCriterion,
  CohortCriteriaGroup,
  CohortCriterion,
  CohortFilters,
  CohortTimeInterval,
} from '../../../src/contract/cohorts.ts';
import { addWall } from './dates.ts';
import type { SqlConnection } from '../store/db-types.ts';
import { inTransaction } from '../store/event-store.ts';
import { propertyFilterSql } from './filters.ts';
import { unnestJson } from '../store/persons.ts';
import { SqlParams } from './properties.ts';
import { PERSON_JOIN_SQL, PERSON_KEY_SQL } from '../store/schema.ts';

/**
 * Cohort membership (docs/api.md, "Cohorts"), kept in the event store's `cohort_people`
 * (team_id, cohort_id, person_id, person_key): one row per person of the cohort, written when
 * the cohort is computed. Analyses never evaluate a cohort's criteria: they semi-join its rows
 * by the events' person keys (filters.ts), so a cohort costs them one hash table.
 *
 * - Dynamic: every person of the project (the `persons` table) is tested against the criteria,
 *   an AND/OR group. A person criterion is a property filter over the person's properties
 *   (filters.ts's operators); a behavioural one counts the events named `key` attributed to the
 *   person (after merges) with `since ≤ timestamp ≤ now`, where `since` is `time_value`
 *   `time_interval`s before now (months and years as calendar months in UTC):
 *   `performed_event` is count ≥ 1, `not_performed_event` count = 0, `performed_event_multiple`
 *   count `operator` (gte by default) `operator_value`. `negation` inverts a criterion.
 *   An empty group holds everyone.
 * - Static: the persons named by distinct id or by `email` person property (a CSV's first
 *   column) or by person id; adding more keeps those already in.
 * Membership is as of the computation: later events change it only when it is computed again.
 */

/** Whatever gives the writer connection (EventStore, EventDb). */
export interface CohortWriter {
  write<T>(fn: (c: SqlConnection) => Promise<T>): Promise<T>;
}

const HOUR = 3_600_000;

/** The first instant (ms) of a behavioural window of `n` `unit`s ending at `now`. */
export function windowStart(now: number, n: number, unit: CohortTimeInterval): number {
  switch (unit) {
    case 'hour':
      return now - n * HOUR;
    case 'day':
      return now - n * 24 * HOUR;
    case 'week':
      return now - n * 7 * 24 * HOUR;
    // In UTC, wall time and instant are the same number.
    case 'month':
    case 'year':
      return addWall(now, unit, -n);
  }
}

/** What a behavioural criterion asks of a person's count of the event in the window. */
export function countHolds(c: CohortBehavioralCriterion, count: number): boolean {
  const wanted = c.operator_value ?? 1;
  switch (c.value) {
    case 'performed_event':
      return count >= 1;
    case 'not_performed_event':
      return count === 0;
    case 'performed_event_multiple':
      switch (c.operator ?? 'gte') {
        case 'gte':
          return count >= wanted;
        case 'lte':
          return count <= wanted;
        case 'gt':
          return count > wanted;
        case 'lt':
          return count < wanted;
        case 'exact':
          return count === wanted;
      }
  }
}

const isGroup = (v: CohortCriterion | CohortCriteriaGroup): v is CohortCriteriaGroup => 'values' in v;

/** The criteria of a group, depth first. */
export function criteriaOf(group: CohortCriteriaGroup): CohortCriterion[] {
  return group.values.flatMap((v) => (isGroup(v) ? criteriaOf(v) : [v]));
}

/**
 * SQL selecting the persons (`pid`, UUID) of a dynamic cohort. Behavioural counts come from
 * one scan of the project's events of the criteria's names in the widest window.
 */
function dynamicPersonsSql(teamId: number, filters: CohortFilters, now: number, params: SqlParams): string {
  const team = params.add(teamId);
  const behavioral = criteriaOf(filters.properties).filter(
    (c): c is CohortBehavioralCriterion => c.type === 'behavioral',
  );
  const column = new Map<CohortBehavioralCriterion, string>();
  const counts: string[] = [];
  behavioral.forEach((c, i) => {
    const since = params.add(new Date(windowStart(now, c.time_value, c.time_interval)).toISOString());
    counts.push(
      `count(*) FILTER (WHERE e.event = ${params.add(c.key)} AND e.timestamp >= CAST(${since} AS TIMESTAMPTZ)) AS c${i}`,
    );
    column.set(c, `coalesce(c.c${i}, 0)`);
  });
  const cols = { event: 'p.properties', person: 'p.properties' };
  const expr = (v: CohortCriterion | CohortCriteriaGroup): string => {
    if (isGroup(v)) {
      if (v.values.length === 0) return 'true';
      return `(${v.values.map(expr).join(v.type === 'OR' ? ' OR ' : ' AND ')})`;
    }
    let sql: string;
    if (v.type === 'person') {
      sql = propertyFilterSql({ key: v.key, operator: v.operator, value: v.value, type: 'person' }, params, cols);
    } else {
      const n = column.get(v)!;
      const op = { gte: '>=', lte: '<=', gt: '>', lt: '<', exact: '=' }[v.operator ?? 'gte'];
      sql =
        v.value === 'performed_event'
          ? `${n} >= 1`
          : v.value === 'not_performed_event'
            ? `${n} = 0`
            : `${n} ${op} ${params.add(v.operator_value ?? 1)}::BIGINT`;
    }
    return v.negation ? `(NOT ${sql})` : `(${sql})`;
  };
  const where = expr(filters.properties);
  const widest =
    behavioral.length === 0
      ? null
      : Math.min(...behavioral.map((c) => windowStart(now, c.time_value, c.time_interval)));
  const countsCte =
    widest === null
      ? ''
      : `WITH c AS (
      SELECT ${PERSON_KEY_SQL} AS pid, ${counts.join(', ')}
      FROM events e ${PERSON_JOIN_SQL}
      WHERE e.team_id = ${team} AND list_contains(${`[${behavioral.map((c) => params.add(c.key)).join(', ')}]`}::VARCHAR[], e.event)
        AND e.timestamp >= CAST(${params.add(new Date(widest).toISOString())} AS TIMESTAMPTZ) AND e.timestamp <= CAST(${params.add(new Date(now).toISOString())} AS TIMESTAMPTZ)
      GROUP BY 1)
    `;
  return `${countsCte}SELECT p.id AS pid FROM persons p ${widest === null ? '' : 'LEFT JOIN c ON c.pid = p.id'}
    WHERE p.team_id = ${team} AND ${where}`;
}

/** The regex values of a cohort's person criteria, with the attr path of each (`filters__properties__values__0__value`). */
export function criteriaRegexes(filters: CohortFilters): { pattern: string; attr: string }[] {
  const out: { pattern: string; attr: string }[] = [];
  const walk = (g: CohortCriteriaGroup, attr: string) =>
    g.values.forEach((v, i) => {
      const here = `${attr}__values__${i}`;
      if (isGroup(v)) walk(v, here);
      else if (v.type === 'person' && (v.operator === 'regex' || v.operator === 'not_regex')) {
        for (const p of Array.isArray(v.value) ? v.value : [v.value])
          out.push({ pattern: String(p), attr: `${here}__value` });
      }
    });
  walk(filters.properties, 'filters__properties');
  return out;
}

/** Inserts the persons `source` selects (`pid`) that are not in the cohort yet, with their keys. */
function insertMembersSql(source: string, team: string, cohort: string): string {
  return `INSERT INTO cohort_people (team_id, cohort_id, person_id, person_key)
    SELECT ${team}, ${cohort}, m.pid, k.key FROM (SELECT DISTINCT pid FROM (${source})) m
    LEFT JOIN person_keys k ON k.team_id = ${team} AND k.person_id = m.pid
    WHERE NOT EXISTS (SELECT 1 FROM cohort_people x WHERE x.team_id = ${team} AND x.cohort_id = ${cohort} AND x.person_id = m.pid)`;
}

async function countOf(c: SqlConnection, teamId: number, cohortId: number): Promise<number> {
  const [row] = await c.all<{ n: unknown }>(
    'SELECT count(*) AS n FROM cohort_people WHERE team_id = $1 AND cohort_id = $2',
    [teamId, cohortId],
  );
  return Number(row?.n ?? 0);
}

/** Computes a dynamic cohort's members again (replacing the old ones); returns how many. */
export async function computeDynamicCohort(
  db: CohortWriter,
  teamId: number,
  cohortId: number,
  filters: CohortFilters,
  now: Date,
): Promise<number> {
  const params = new SqlParams();
  const source = dynamicPersonsSql(teamId, filters, now.getTime(), params);
  const sql = insertMembersSql(source, params.add(teamId), params.add(cohortId));
  return db.write((c) =>
    inTransaction(c, async () => {
      await c.run('DELETE FROM cohort_people WHERE team_id = $1 AND cohort_id = $2', [teamId, cohortId]);
      await c.run(sql, params.values);
      return countOf(c, teamId, cohortId);
    }),
  );
}

/** Who a static cohort's list names: distinct ids or emails (a CSV's cells), person ids. */
export interface StaticMembers {
  idsOrEmails?: readonly string[];
  personIds?: readonly string[];
}

/** Adds persons to a static cohort (those not found are skipped); returns the cohort's size. */
export async function addStaticMembers(
  db: CohortWriter,
  teamId: number,
  cohortId: number,
  m: StaticMembers,
): Promise<number> {
  const params = new SqlParams();
  const team = params.add(teamId);
  const names = params.add(JSON.stringify(m.idsOrEmails ?? []));
  const ids = params.add(JSON.stringify(m.personIds ?? []));
  const source = `SELECT d.person_id AS pid FROM person_distinct_ids d WHERE d.team_id = ${team} AND d.distinct_id IN (SELECT r FROM ${unnestJson(names, '["VARCHAR"]')})
    UNION ALL SELECT p.id FROM persons p WHERE p.team_id = ${team} AND json_extract_string(p.properties, '$.email') IN (SELECT r FROM ${unnestJson(names, '["VARCHAR"]')})
    UNION ALL SELECT p.id FROM persons p WHERE p.team_id = ${team} AND p.id IN (SELECT r FROM ${unnestJson(ids, '["UUID"]')})`;
  const sql = insertMembersSql(source, team, params.add(cohortId));
  return db.write((c) =>
    inTransaction(c, async () => {
      await c.run(sql, params.values);
      return countOf(c, teamId, cohortId);
    }),
  );
}

/** Takes a person out of a static cohort; returns the cohort's size. */
export async function removeStaticMember(
  db: CohortWriter,
  teamId: number,
  cohortId: number,
  personId: string,
): Promise<number> {
  return db.write((c) =>
    inTransaction(c, async () => {
      await c.run('DELETE FROM cohort_people WHERE team_id = $1 AND cohort_id = $2 AND person_id = $3::UUID', [
        teamId,
        cohortId,
        personId,
      ]);
      return countOf(c, teamId, cohortId);
    }),
  );
}

/** The person ids among `ids` that are not persons of the project. */
export async function unknownPersons(
  db: { all: SqlConnection['all'] },
  teamId: number,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.all<{ id: string }>(
    `SELECT p.id::VARCHAR AS id FROM persons p WHERE p.team_id = $1 AND p.id IN (SELECT r FROM ${unnestJson('$2', '["UUID"]')})`,
    [teamId, JSON.stringify(ids)],
  );
  const found = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !found.has(id.toLowerCase()));
}

/** A CSV's first column, row by row (quoted cells unquoted), without blanks: what a static cohort's upload names. */
export function csvFirstColumn(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    let cell: string;
    if (line.startsWith('"')) {
      const m = /^"((?:[^"]|"")*)"/.exec(line);
      cell = m ? m[1]!.replace(/""/g, '"') : line.slice(1);
    } else {
      cell = line.split(',')[0] ?? '';
    }
    cell = cell.trim();
    if (cell !== '') out.push(cell);
  }
  return out;
}
