import { escapeIdentifier } from 'pg';
import type { BatchExportModel } from '../../../src/contract/index.ts';
import type { ExportRecord } from '../records.ts';

/** Postgres proper, or Redshift: same protocol, no JSONB and a 256-byte TEXT. */
export type Flavor = 'postgres' | 'redshift';

export interface Column {
  name: string;
  type: string;
}

/** A cell as bound to a statement: text (JSON already serialised) or SQL NULL. */
export type Cell = string | null;

const JSONB = { postgres: 'JSONB', redshift: 'VARCHAR(65535)' } as const;
// Redshift reads TEXT as VARCHAR(256); the largest VARCHAR holds what TEXT holds elsewhere.
const TEXT = { postgres: 'TEXT', redshift: 'VARCHAR(65535)' } as const;

/**
 * The columns the production service creates, in its order: the events table of its legacy apps
 * (JSON columns as JSONB on Postgres, as text on Redshift, whose default has no SUPER), and the
 * persons table of one row per distinct id.
 */
export function columnsOf(model: BatchExportModel, flavor: Flavor): Column[] {
  const json = JSONB[flavor];
  if (model === 'events') {
    return [
      { name: 'uuid', type: 'VARCHAR(200)' },
      { name: 'event', type: 'VARCHAR(200)' },
      { name: 'properties', type: json },
      { name: 'elements', type: flavor === 'postgres' ? 'JSONB' : 'VARCHAR(65535)' },
      { name: 'set', type: json },
      { name: 'set_once', type: json },
      { name: 'distinct_id', type: 'VARCHAR(200)' },
      { name: 'team_id', type: 'INTEGER' },
      { name: 'ip', type: 'VARCHAR(200)' },
      { name: 'site_url', type: 'VARCHAR(200)' },
      { name: 'timestamp', type: 'TIMESTAMP WITH TIME ZONE' },
    ];
  }
  return [
    { name: 'team_id', type: 'BIGINT' },
    { name: 'distinct_id', type: TEXT[flavor] },
    { name: 'person_id', type: TEXT[flavor] },
    { name: 'properties', type: json },
    { name: 'person_distinct_id_version', type: 'BIGINT' },
    { name: 'person_version', type: 'BIGINT' },
    { name: 'created_at', type: 'TIMESTAMP WITH TIME ZONE' },
    { name: 'is_deleted', type: 'BOOLEAN' },
  ];
}

/** `"schema"."table"`, each part quoted, so any name is an identifier and never SQL. */
export const qualified = (schema: string, table: string) => `${escapeIdentifier(schema)}.${escapeIdentifier(table)}`;

export const createTableSql = (target: string, columns: readonly Column[]) =>
  `CREATE TABLE IF NOT EXISTS ${target} (${columns.map((c) => `${escapeIdentifier(c.name)} ${c.type}`).join(', ')})`;

/** No rows, only the column names: works on Postgres and Redshift, and fails with 42P01 when the table is missing. */
export const probeTableSql = (target: string) => `SELECT * FROM ${target} WHERE 1 = 0`;

/** A multi-row INSERT of `rows` rows with every value a parameter. */
export function insertSql(target: string, columns: readonly Column[], rows: number): string {
  const width = columns.length;
  const tuples: string[] = [];
  for (let r = 0; r < rows; r += 1) {
    const base = r * width;
    const slots: string[] = [];
    for (let c = 1; c <= width; c += 1) slots.push(`$${base + c}`);
    tuples.push(`(${slots.join(',')})`);
  }
  return `INSERT INTO ${target} (${columns.map((c) => escapeIdentifier(c.name)).join(', ')}) VALUES ${tuples.join(',')}`;
}

/**
 * `COPY … FROM STDIN` in the text format (tab-separated, `\N` for NULL): Postgres parses it far
 * faster than INSERT's parameters, with one round trip a batch. Redshift has no COPY from the client.
 */
export const copySql = (target: string, columns: readonly Column[]) =>
  `COPY ${target} (${columns.map((c) => escapeIdentifier(c.name)).join(', ')}) FROM STDIN (FORMAT text)`;

// In COPY's text format a backslash starts an escape, and tab, newline and carriage return end a
// field or row: each is written as its backslash escape, which COPY reads back as the character.
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const copyCell = (cell: Cell) =>
  cell === null ? '\\N' : COPY_SPECIAL.test(cell) ? cell.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]!) : cell;

/** Rows as COPY text: one line a row, cells tab-separated. Cells hold no NUL (see `clean` and `jsonCell`). */
export function copyText(rows: readonly Cell[][]): string {
  let out = '';
  for (const row of rows) out += `${row.map(copyCell).join('\t')}\n`;
  return out;
}

/** Removes an events interval already exported for the project: a rerun replaces it. */
export const deleteEventsSql = (target: string) =>
  `DELETE FROM ${target} WHERE ${escapeIdentifier('team_id')} = $1 AND ${escapeIdentifier('timestamp')} >= $2 AND ${escapeIdentifier('timestamp')} < $3`;

/**
 * Removes the rows of these distinct ids (`count` from $2), the production service's merge key
 * with team_id: a later export of a person, or of a distinct id merged into another person,
 * replaces its rows.
 */
export function deletePersonsSql(target: string, count: number): string {
  const ids = Array.from({ length: count }, (_, i) => `$${i + 2}`).join(',');
  return `DELETE FROM ${target} WHERE ${escapeIdentifier('team_id')} = $1 AND ${escapeIdentifier('distinct_id')} IN (${ids})`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): Cell =>
  typeof v === 'string' && v !== '' ? clean(v) : v === undefined || v === null || v === '' ? null : clean(String(v));

/** Postgres text cannot hold NUL; drop it rather than fail the whole interval over one byte. */
const clean = (s: string) => (s.includes('\0') ? s.replaceAll('\0', '') : s);

// JSON.stringify escapes only control characters and lone surrogates as \uXXXX (a pair stays
// as is); a backslash before them that is itself escaped is text, hence the even run of \\.
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g;

/**
 * JSON text for a JSON column. JSONB refuses `\u0000` and unpaired surrogates, which event
 * properties do carry at times: they are removed.
 */
export function jsonCell(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  const json = JSON.stringify(value);
  if (!json.includes('\\u')) return json;
  return json.replace(NUL_ESCAPE, '$1').replace(LONE_SURROGATE, '$1');
}

/**
 * One record as table rows (cells in `columnsOf` order). An event is one row; the columns the
 * production service derives come from the properties (`ip` from `$ip`, `set` and `set_once` from
 * `$set`/`$set_once` unless the record carries them, `elements` from `$elements_chain`). A persons
 * record (one per distinct id) is one row.
 */
export function rowsOf(model: BatchExportModel, flavor: Flavor, record: ExportRecord): Cell[][] {
  const properties = isObject(record.properties) ? record.properties : {};
  if (model === 'events') {
    const chain = record.elements_chain ?? properties.$elements_chain;
    const elements =
      flavor === 'redshift' ? '' : typeof chain === 'string' && chain !== '' ? JSON.stringify(clean(chain)) : null;
    return [
      [
        text(record.uuid),
        text(record.event),
        jsonCell(properties),
        elements,
        jsonCell(record.set ?? properties.$set),
        jsonCell(record.set_once ?? properties.$set_once),
        text(record.distinct_id),
        text(record.team_id),
        text(properties.$ip),
        flavor === 'redshift' ? '' : null,
        text(record.timestamp),
      ],
    ];
  }
  return [
    [
      text(record.team_id),
      text(record.distinct_id),
      text(record.person_id),
      jsonCell(properties),
      text(record.person_distinct_id_version),
      text(record.person_version),
      text(record.created_at),
      'false',
    ],
  ];
}
