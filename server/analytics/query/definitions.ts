/**
 * What the insight builders' pickers offer, computed from the event store: the event names of a
 * project with their volume, the property keys of its events or persons with their value type,
 * and the values a property takes. Property keys come out of the data as values (DuckDB unnests
 * each properties object into key/value pairs) and reach SQL only as bound parameters.
 */
import { createHash } from 'node:crypto';
import type { PropertyValueType } from '../../../src/contract/index.ts';
import { materializedFor, propertyText, SqlParams, type PropertySource } from './properties.ts';
import { entriesSql, eventPropertyKinds, ISO_DATE_PATTERN, kindSql, type KindRow } from '../store/property-stats.ts';
import type { QueryContext } from '../types.ts';
import type { SqlRunner } from '../store/db-types.ts';

/** The counting window of `volume_30_day`. */
export const VOLUME_WINDOW_DAYS = 30;
/** At most this many values of a property (`events/values/`). */
export const PROPERTY_VALUES_LIMIT = 50;

export interface EventNameStats {
  name: string;
  /** Events with this name in the last 30 days (by the server's clock). */
  volume_30_day: number;
  /** ISO times of the first and last event with this name. */
  first_seen: string;
  last_seen: string;
}

export interface PropertyKeyStats {
  name: string;
  /** The most common type of its non-null values; null when it only ever held null. */
  property_type: PropertyValueType | null;
  /** Events (or persons) carrying it: in the last 30 days (whole UTC days) for events, all for persons. */
  volume_30_day: number;
}

export interface PropertyValueStats {
  name: string;
  count: number;
}

/** A stable UUID-shaped id derived from the parts (definitions have no stored id). */
export function definitionId(...parts: (string | number)[]): string {
  const hex = createHash('md5').update(JSON.stringify(parts)).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The first instant of the 30-day window ending at `now`. */
export const windowStart = (now: Date) => new Date(now.getTime() - VOLUME_WINDOW_DAYS * 86_400_000);
/** Its UTC day (days since 1970-01-01): property volumes count whole days from it. */
export const windowStartDay = (now: Date) => Math.floor(windowStart(now).getTime() / 86_400_000);

/** Event names of project `teamId`, with their 30-day volume and first/last time seen. */
export async function eventNameStats(db: SqlRunner, teamId: number, now: Date): Promise<EventNameStats[]> {
  const rows = await db.all<{ name: string; v: number; first: number; last: number }>(
    `SELECT event AS name, (count(*) FILTER (WHERE timestamp >= $2::TIMESTAMPTZ))::DOUBLE AS v,
       epoch_ms(min(timestamp))::DOUBLE AS first, epoch_ms(max(timestamp))::DOUBLE AS last
     FROM events WHERE team_id = $1 GROUP BY event`,
    [teamId, windowStart(now).toISOString()],
  );
  return rows.map((r) => ({
    name: r.name,
    volume_30_day: Number(r.v),
    first_seen: new Date(Number(r.first)).toISOString(),
    last_seen: new Date(Number(r.last)).toISOString(),
  }));
}

/** Per key: the type held most often (ties: String, then by name) and the volume. */
function foldKinds(rows: readonly KindRow[]): PropertyKeyStats[] {
  const byKey = new Map<string, { volume: number; kinds: Map<PropertyValueType, number> }>();
  for (const r of rows) {
    let entry = byKey.get(r.key);
    if (!entry) byKey.set(r.key, (entry = { volume: 0, kinds: new Map() }));
    entry.volume += Number(r.recent);
    if (r.kind !== null) entry.kinds.set(r.kind, (entry.kinds.get(r.kind) ?? 0) + Number(r.total));
  }
  return [...byKey].map(([name, { volume, kinds }]) => {
    let best: PropertyValueType | null = null;
    let bestCount = -1;
    for (const [kind, n] of kinds) {
      if (n > bestCount || (n === bestCount && kind === 'String')) [best, bestCount] = [kind, n];
    }
    return { name, property_type: best, volume_30_day: volume };
  });
}

/**
 * Property keys of the events of project `teamId` (only those of `eventNames` when given), each
 * with its most common value type and the events carrying it in the last 30 days.
 */
export async function eventPropertyStats(
  db: SqlRunner,
  teamId: number,
  now: Date,
  eventNames: readonly string[] | null,
): Promise<PropertyKeyStats[]> {
  return foldKinds(await eventPropertyKinds(db, teamId, windowStartDay(now), eventNames));
}

/** Property keys of the persons of project `teamId`, with their most common type and how many persons carry each. */
export async function personPropertyStats(db: SqlRunner, teamId: number): Promise<PropertyKeyStats[]> {
  const rows = await db.all<KindRow>(
    `SELECT p.key AS key, ${kindSql('p.value::VARCHAR', '$2')} AS kind, count(*)::DOUBLE AS total, count(*)::DOUBLE AS recent
     FROM (SELECT ${entriesSql('properties')} AS p FROM persons WHERE team_id = $1)
     GROUP BY ALL`,
    [teamId, ISO_DATE_PATTERN],
  );
  return foldKinds(rows);
}

/** `events/values/` looks at the events of the last 7 days (as the production service does), all of them when those have none. */
export const VALUES_WINDOW_DAYS = 7;

/**
 * The values property `key` takes (as text), most frequent first, at most 50: on the project's
 * events of the last 7 days (of `eventName` when given; all its events when those give none) or
 * on its persons; `search` keeps values containing it, in any letter case.
 */
export async function propertyValueStats(
  ctx: Pick<QueryContext, 'db' | 'project' | 'materialized'>,
  now: Date,
  options: { key: string; source: PropertySource; search?: string | undefined; eventName?: string | undefined },
): Promise<PropertyValueStats[]> {
  const { db, project } = ctx;
  const run = async (since: Date | null) => {
    const params = new SqlParams();
    const team = params.add(project.id);
    let from: string;
    let value: string;
    if (options.source === 'event') {
      params.materialized = await materializedFor(ctx);
      value = propertyText(params, 'event', options.key);
      const conditions = [`e.team_id = ${team}`];
      if (options.eventName !== undefined) conditions.push(`e.event = ${params.add(options.eventName)}`);
      if (since) conditions.push(`e.timestamp >= ${params.add(since.toISOString())}::TIMESTAMPTZ`);
      from = `events e WHERE ${conditions.join(' AND ')}`;
    } else {
      value = propertyText(params, 'person', options.key);
      from = `persons p WHERE p.team_id = ${team}`;
    }
    const search = options.search ? `AND contains(lower(v), ${params.add(options.search.toLowerCase())})` : '';
    const rows = await db.all<{ name: string; n: number }>(
      `SELECT v AS name, count(*)::DOUBLE AS n FROM (SELECT ${value} AS v FROM ${from})
       WHERE v IS NOT NULL ${search} GROUP BY v ORDER BY n DESC, v LIMIT ${PROPERTY_VALUES_LIMIT}`,
      params.values,
    );
    return rows.map((r) => ({ name: r.name, count: Number(r.n) }));
  };
  if (options.source === 'person') return run(null);
  const recent = await run(new Date(now.getTime() - VALUES_WINDOW_DAYS * 86_400_000));
  return recent.length > 0 ? recent : run(null);
}
