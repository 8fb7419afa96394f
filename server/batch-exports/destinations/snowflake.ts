import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from 'snowflake-sdk';
import { BlockedDestinationError, resolveDestinationHost } from '../../net/outbound.ts';
import { describeFailure, runSteps } from './check.ts';
import {
  DeliveryError,
  type CheckConnection,
  type Deliver,
  type Destination,
  type DestinationOptions,
} from './types.ts';
import { stageTableName, warehouseTable, type ColumnKind, type WarehouseTable } from './warehouse-columns.ts';

export interface SnowflakeOptions extends DestinationOptions {
  /** The URL instead of https://<account>.snowflakecomputing.com: only tests set it, to a local stand-in. */
  snowflakeAccessUrl?: string;
}

/** Records per staged file (production stages files of a few tens of MB). */
const DEFAULT_FILE_RECORDS = 10_000;

const TYPES: Record<ColumnKind, string> = {
  string: 'STRING',
  json: 'VARIANT',
  integer: 'INTEGER',
  timestamp: 'TIMESTAMP',
  boolean: 'BOOLEAN',
};

export const quoteIdentifier = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** The table's DDL: created only when missing, so an existing table (and its rows) is kept. */
export function snowflakeCreateTableSql(table: WarehouseTable, name: string): string {
  const columns = table.columns.map((c) => `${quoteIdentifier(c.name)} ${TYPES[c.kind]}`).join(', ');
  return `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(name)} (${columns}) COMMENT = 'Created by a batch export'`;
}

/** One line of a staged JSON file: VARIANT columns hold the objects themselves, absent values null. */
export function snowflakeRow(table: WarehouseTable, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(table.columns.map(({ name }) => [name, values[name] ?? null]));
}

const stageOf = (table: string, prefix: string) => `'@%${quoteIdentifier(table).replace(/'/g, "\\'")}/${prefix}'`;

export function snowflakePutSql(file: string, table: string, prefix: string): string {
  return `PUT 'file://${file.replace(/'/g, "\\'")}' ${stageOf(table, prefix)} AUTO_COMPRESS = TRUE OVERWRITE = TRUE`;
}

/** Loads the staged files into the stage table by column name, then removes them from the stage. */
export function snowflakeCopySql(table: string, prefix: string): string {
  return `COPY INTO ${quoteIdentifier(table)} FROM ${stageOf(table, prefix)} FILE_FORMAT = (TYPE = 'JSON') MATCH_BY_COLUMN_NAME = CASE_SENSITIVE PURGE = TRUE`;
}

/** Rows of the stage table replace the rows with the same key, the others are inserted: a rerun adds nothing. */
export function snowflakeMergeSql(table: WarehouseTable, target: string, stage: string): string {
  const names = table.columns.map((c) => quoteIdentifier(c.name));
  return [
    `MERGE INTO ${quoteIdentifier(target)} AS final USING ${quoteIdentifier(stage)} AS stage`,
    `ON ${table.key.map((k) => `final.${quoteIdentifier(k)} = stage.${quoteIdentifier(k)}`).join(' AND ')}`,
    `WHEN MATCHED THEN UPDATE SET ${names.map((n) => `final.${n} = stage.${n}`).join(', ')}`,
    `WHEN NOT MATCHED THEN INSERT (${names.join(', ')}) VALUES (${names.map((n) => `stage.${n}`).join(', ')})`,
  ].join('\n');
}

interface SnowflakeFailure {
  code?: unknown;
  message?: unknown;
  response?: { statusCode?: number };
  cause?: unknown;
}

/** What went wrong, in words (never a config value), and whether trying again can help. */
function explain(error: unknown): { text: string; retryable: boolean } {
  if (error instanceof BlockedDestinationError)
    return { text: `refused, ${error.message}. This server only connects to public addresses`, retryable: false };
  const e = (error ?? {}) as SnowflakeFailure;
  const code = String(e.code ?? '');
  const message = typeof e.message === 'string' ? e.message.replace(/\s*\n\s*/g, ' ') : '';
  // Snowflake's login failures: wrong user or password (390100), locked or disabled user (3901xx).
  if (/^3901\d\d$/.test(code) || code === '390144')
    return { text: `authentication failed (${message} ${code})`, retryable: false };
  if (code === '401001') return { text: describeFailure(e.cause ?? error).replace(/\.$/, ''), retryable: true };
  if (code === '401002') {
    const status = e.response?.statusCode ?? 0;
    return { text: `answered ${status}`, retryable: status >= 500 || status === 429 || status === 408 };
  }
  // A SQL error (002003 does not exist or not authorized, 003001 insufficient privileges) or a
  // driver's refusal of the config (4040xx) cannot pass by itself.
  if (/^\d{6}$/.test(code)) return { text: `${message} (${code})`, retryable: false };
  // The network (DNS, refused, reset, timed out) or the local disk: worth another attempt.
  return { text: describeFailure(error).replace(/\.$/, ''), retryable: true };
}

function snowflakeFailure(error: unknown, doing: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const { text, retryable } = explain(error);
  return new DeliveryError(`Snowflake ${doing}: ${text}.`, retryable);
}

/** Connects with the official driver, after the outbound guard has checked the host. */
async function connect(config: Record<string, unknown>, options: SnowflakeOptions): Promise<Connection> {
  const accessUrl = options.snowflakeAccessUrl;
  const host = accessUrl ? new URL(accessUrl).hostname : `${String(config.account)}.snowflakecomputing.com`;
  await resolveDestinationHost(host, { allowHosts: options.allowHosts ?? [] });
  const imported = await import('snowflake-sdk');
  const sdk = ('default' in imported ? imported.default : imported) as typeof imported;
  // The driver writes its own log file unless given a logger; the run keeps its own log.
  const quiet = () => undefined;
  sdk.configure({
    logLevel: 'ERROR',
    customLogger: { error: quiet, warn: quiet, info: quiet, debug: quiet, trace: quiet },
  });
  const role = typeof config.role === 'string' && config.role !== '' ? { role: config.role } : {};
  const connection = sdk.createConnection({
    account: String(config.account),
    username: String(config.user),
    password: String(config.password),
    database: String(config.database),
    warehouse: String(config.warehouse),
    schema: String(config.schema),
    ...role,
    ...(accessUrl ? { accessUrl } : {}),
    application: 'PostHogBatchExports',
    sfRetryMaxLoginRetries: 0,
    timeout: options.httpTimeoutMs ?? 60_000,
  });
  await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
  return connection;
}

function execute(connection: Connection, sqlText: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    connection.execute({
      sqlText,
      complete: (error, _statement, rows) =>
        error ? reject(error) : resolve((rows ?? []) as Record<string, unknown>[]),
    });
  });
}

const close = (connection: Connection | undefined) =>
  new Promise<void>((resolve) => {
    if (!connection?.isUp()) return resolve();
    connection.destroy(() => resolve());
  });

/** Makes the warehouse, database and schema current (quoted, as production does). */
async function useNamespace(connection: Connection, config: Record<string, unknown>): Promise<void> {
  await execute(connection, `USE WAREHOUSE ${quoteIdentifier(String(config.warehouse))}`);
  await execute(connection, `USE DATABASE ${quoteIdentifier(String(config.database))}`);
  await execute(connection, `USE SCHEMA ${quoteIdentifier(String(config.schema))}`);
}

/** COPY INTO answers one row per file; anything but LOADED names the file's first error. */
function checkLoaded(rows: Record<string, unknown>[]): number {
  let loaded = 0;
  for (const row of rows) {
    if (row.status !== 'LOADED')
      throw new DeliveryError(
        `Snowflake could not load a staged file (${String(row.status)}): ${String(row.first_error ?? 'no error given')}.`,
        false,
      );
    loaded += Number(row.rows_loaded ?? 0);
  }
  return loaded;
}

/**
 * Snowflake, as the production service loads it: the interval's records are written to JSON
 * files, PUT into a stage table's stage and copied in (COPY INTO, by column name); one MERGE then
 * moves them into the export's table (created with the model's columns when missing), so a rerun
 * replaces rows instead of adding them. The stage table and local files are removed at the end.
 */
export const deliverSnowflake: Deliver = async (context, options: SnowflakeOptions) => {
  const { config, records, total, log, model, interval, exportId, progress } = context;
  const name = `${String(config.database)}.${String(config.schema)}.${String(config.table_name)}`;
  if (total === 0) {
    log('INFO', `No records to export to Snowflake table ${name}.`);
    return 0;
  }
  const table = warehouseTable(model, 'snowflake');
  const target = String(config.table_name);
  const stage = stageTableName(target, interval.end, exportId);
  const prefix = interval.end.slice(0, 19).replace(/[^0-9]/g, '-');
  let connection: Connection | undefined;
  let dir: string | undefined;
  let staged = false;
  let step = `could not connect to account ${String(config.account)}`;
  try {
    connection = await connect(config, options);
    step = 'could not use the warehouse, database and schema';
    await useNamespace(connection, config);
    step = `could not create table ${name}`;
    await execute(connection, snowflakeCreateTableSql(table, target));
    step = `could not create stage table ${stage}`;
    staged = true;
    await execute(connection, `DROP TABLE IF EXISTS ${quoteIdentifier(stage)}`);
    await execute(connection, snowflakeCreateTableSql(table, stage));
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'snowflake-export-'));
    let sent = 0;
    let file = 0;
    for await (const chunk of records.batches(options.httpBatchSize ?? DEFAULT_FILE_RECORDS)) {
      file += 1;
      step = `could not stage file ${file} (${sent} of ${total} records staged)`;
      const now = new Date();
      const local = path.join(dir, `${prefix}-${file}.jsonl`);
      await fs.writeFile(
        local,
        `${chunk.map((r) => JSON.stringify(snowflakeRow(table, table.row(r, now)))).join('\n')}\n`,
      );
      const [put] = await execute(connection, snowflakePutSql(local, stage, prefix));
      if (put?.status !== 'UPLOADED')
        throw new DeliveryError(`Snowflake did not take staged file ${file} (${String(put?.status)}).`, true);
      await fs.rm(local);
      sent += chunk.length;
      progress(sent);
      log('DEBUG', `File ${file}: ${chunk.length} records staged (${sent} of ${total}).`);
    }
    step = 'could not copy the staged files';
    const loaded = checkLoaded(await execute(connection, snowflakeCopySql(stage, prefix)));
    step = `could not merge the stage table into ${name}`;
    await execute(connection, snowflakeMergeSql(table, target, stage));
    log('INFO', `${loaded} records merged into Snowflake table ${name}.`);
    return sent;
  } catch (error) {
    throw snowflakeFailure(error, step);
  } finally {
    if (staged && connection?.isUp()) {
      await execute(connection, `DROP TABLE IF EXISTS ${quoteIdentifier(stage)}`).catch(() =>
        log('WARNING', `Could not drop the stage table ${stage}.`),
      );
    }
    await close(connection);
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  }
};

/** Test connection: log in, make the namespace current, create and drop a table in it. */
const checkSnowflake: CheckConnection = (config, options: SnowflakeOptions) => {
  let connection: Connection | undefined;
  const step = (name: string, run: () => Promise<string>) => ({
    step: name,
    run: () =>
      run().catch((error: unknown) => {
        const { text } = explain(error);
        throw new Error(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
      }),
  });
  return runSteps(
    [
      step('Connect and log in', async () => {
        connection = await connect(config, options);
        return `Logged in as ${String(config.user)}.`;
      }),
      step('Use the warehouse, database and schema', async () => {
        await useNamespace(connection!, config);
        return `Using ${String(config.database)}.${String(config.schema)} on warehouse ${String(config.warehouse)}.`;
      }),
      step('Create and drop a test table', async () => {
        const id = `posthog_test_${Date.now().toString(36)}`;
        await execute(connection!, `CREATE TABLE ${quoteIdentifier(id)} ("id" STRING)`);
        await execute(connection!, `DROP TABLE ${quoteIdentifier(id)}`);
        return `Table ${id} created and dropped.`;
      }),
    ],
    () => close(connection),
  );
};

export const snowflakeDestination: Destination = { deliver: deliverSnowflake, check: checkSnowflake };
