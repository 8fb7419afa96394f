/**
 * Property access in SQL. Property names are free text (up to 400 characters: spaces, quotes,
 * dots, slashes, unicode): they reach DuckDB only as bound values, as a JSON Pointer
 * (RFC 6901) built from the key, never spliced into SQL text. Whatever must appear in SQL text
 * as a name (a column alias, a table alias) is checked against a strict identifier grammar.
 */
import { materializedColumn } from '../store/schema.ts';
import type { QueryContext } from '../types.ts';
import type { SqlRunner } from '../store/db-types.ts';

export interface HogqlEnv {
  timeZone: string;
  weekStart: 0 | 1;
  /** The clock (ms): `now()`. */
  now: number;
}

/** The HogQL environment of an analysis. */
export const envOf = (ctx: Pick<QueryContext, 'project' | 'now'>): HogqlEnv => ({
  timeZone: ctx.project.timezone,
  weekStart: ctx.project.week_start_day,
  now: ctx.now.getTime(),
});

/** Bound parameters of one statement: `add(value)` returns its placeholder (`$1`, `$2`, …). */
export class SqlParams {
  readonly values: unknown[] = [];
  /**
   * Whether every events row of the project has its materialized columns filled (checked by
   * {@link materializedReady} before the statement is built): then hot keys read the columns.
   */
  materialized = false;
  /** What HogQL expressions read besides the row (hogql/compile.ts): the project's zone and week start, the clock. */
  env: HogqlEnv = { timeZone: 'UTC', weekStart: 0, now: 0 };
  /** The project's group types by index (groups.ts): what group filters, breakdowns and aggregation read. */
  groupTypes: readonly string[] = [];
  private readonly seen = new Map<string, string>();

  add(value: unknown): string {
    // Scalars are shared: the same key or value bound twice uses one placeholder.
    const memo = typeof value === 'string' ? `s:${value}` : typeof value === 'number' ? `n:${value}` : null;
    if (memo !== null) {
      const hit = this.seen.get(memo);
      if (hit) return hit;
    }
    this.values.push(value);
    const ref = `$${this.values.length}`;
    if (memo !== null) this.seen.set(memo, ref);
    return ref;
  }

  /** A copy holding only the first `n` values: for another statement that reuses SQL written with them. */
  prefix(n: number): SqlParams {
    const copy = new SqlParams();
    copy.materialized = this.materialized;
    copy.env = this.env;
    copy.groupTypes = this.groupTypes;
    copy.values.push(...this.values.slice(0, n));
    for (const [memo, ref] of this.seen) if (Number(ref.slice(1)) <= n) copy.seen.set(memo, ref);
    return copy;
  }
}

/** The JSON Pointer of a top-level property key: `~` → `~0`, `/` → `~1`. */
export function jsonPointer(key: string): string {
  return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** `name` if it is a plain SQL identifier; throws otherwise (never reachable from user input). */
export function sqlIdentifier(name: string): string {
  if (!IDENTIFIER_PATTERN.test(name)) throw new Error(`not an SQL identifier: ${JSON.stringify(name)}`);
  return name;
}

export type PropertySource = 'event' | 'person';

/** Where the JSON columns are in the current query (aliases, validated). */
export interface PropertyColumns {
  event: string;
  person: string;
}
export const DEFAULT_COLUMNS: PropertyColumns = { event: 'e.properties', person: 'p.properties' };

/** `alias.column` with both parts validated as identifiers. */
export function columnRef(ref: string): string {
  const parts = ref.split('.');
  if (parts.length > 2 || parts.length === 0) throw new Error(`not a column reference: ${JSON.stringify(ref)}`);
  return parts.map(sqlIdentifier).join('.');
}

/**
 * Whether the property is read from a materialized column (schema.ts) rather than the JSON: an
 * event's hot key, when every row of the project has its columns filled.
 */
export function readsColumn(params: SqlParams, source: PropertySource, key: string): boolean {
  return source === 'event' && params.materialized && materializedColumn(key) !== null;
}

/**
 * SQL text (VARCHAR) of a property's value: JSON strings unquoted, numbers and booleans as their
 * JSON text (`3`, `1.5`, `true`), objects/arrays as JSON; NULL when missing or JSON null.
 */
export function propertyText(
  params: SqlParams,
  source: PropertySource,
  key: string,
  cols: PropertyColumns = DEFAULT_COLUMNS,
): string {
  // A materialized key of an events row (`<alias>.properties`) reads its column (schema.ts)
  // when every row has it filled. Only the fixed column name from the list becomes SQL text.
  const column = readsColumn(params, source, key) ? materializedColumn(key) : null;
  const [alias, field] = cols.event.split('.');
  if (column !== null && field === 'properties' && alias) return `${sqlIdentifier(alias)}.${sqlIdentifier(column)}`;
  return `json_extract_string(${columnRef(cols[source])}, ${params.add(jsonPointer(key))})`;
}

/** {@link materializedReady} for an analysis: the context's kept answer when it has one. */
export function materializedFor(ctx: Pick<QueryContext, 'db' | 'project' | 'materialized'>): Promise<boolean> {
  return ctx.materialized ? ctx.materialized() : materializedReady(ctx.db, ctx.project.id);
}

/** Whether every stored event of project `teamId` has its materialized columns filled. */
export async function materializedReady(db: SqlRunner, teamId: number): Promise<boolean> {
  const rows = await db.all<{ n: unknown }>(
    'SELECT count(*) AS n FROM events WHERE team_id = $1 AND mp_filled IS NOT TRUE',
    [teamId],
  );
  return Number(rows[0]?.n ?? 1) === 0;
}

/** SQL DOUBLE of a property: NULL when missing or not a number (or numeric text). */
export function propertyNumber(
  params: SqlParams,
  source: PropertySource,
  key: string,
  cols: PropertyColumns = DEFAULT_COLUMNS,
): string {
  return `TRY_CAST(${propertyText(params, source, key, cols)} AS DOUBLE)`;
}

/**
 * The same reading in TypeScript (reference implementations and tests): the text DuckDB's
 * `json_extract_string` gives for a JSON value, or null.
 */
export function propertyTextOf(properties: Record<string, unknown>, key: string): string | null {
  if (!Object.prototype.hasOwnProperty.call(properties, key)) return null;
  const v = properties[key];
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

const NUMERIC_TEXT = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

/** The number DuckDB's `TRY_CAST(text AS DOUBLE)` gives, or null (TypeScript side). */
export function propertyNumberOf(properties: Record<string, unknown>, key: string): number | null {
  const text = propertyTextOf(properties, key);
  if (text === null || !NUMERIC_TEXT.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** A filter's value as the text it is compared with (`3` → "3", `true` → "true"). */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}
