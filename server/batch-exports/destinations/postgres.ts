import net from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tls from 'node:tls';
import type pg from 'pg';
import { escapeIdentifier } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { BatchExportModel } from '../../../src/contract/index.ts';
import { resolveDestinationHost } from '../../net/outbound.ts';
import { runSteps } from './check.ts';
import {
  addressOf,
  certificateWords,
  connectClient,
  CONNECT_TIMEOUT_MS,
  deliveryError,
  label,
  reason,
  settingsOf,
  sqlState,
  tlsOptions,
  transportOf,
  type PgSettings,
} from './postgres-client.ts';
import {
  columnsOf,
  copySql,
  copyText,
  createTableSql,
  deleteEventsSql,
  deletePersonsSql,
  insertSql,
  probeTableSql,
  qualified,
  rowsOf,
  type Cell,
  type Column,
  type Flavor,
} from './postgres-sql.ts';
import { DeliveryError, type CheckConnection, type Deliver, type DeliveryContext, type Destination } from './types.ts';

/** Records read from the event store at a time. */
export const READ_BATCH = 5000;
/** Rows per INSERT (Redshift): 11 columns × 1000 stays far below the protocol's 65,535 parameters. */
export const ROWS_PER_INSERT = 1000;

/** The table's column names, or null when it does not exist. */
async function existingColumns(client: pg.Client, target: string): Promise<string[] | null> {
  try {
    const result = await client.query(probeTableSql(target));
    return result.fields.map((f) => f.name);
  } catch (error) {
    if (sqlState(error) === '42P01') return null;
    throw error;
  }
}

const missingOf = (expected: readonly Column[], present: readonly string[]) =>
  expected.map((c) => c.name).filter((name) => !present.includes(name));

/**
 * Creates the table when it is missing; an existing table must have every expected column (extra
 * columns are left alone, and the user's table is never altered). Returns what it did, for the log.
 */
async function ensureTable(client: pg.Client, s: PgSettings, model: BatchExportModel): Promise<string> {
  const target = qualified(s.schema, s.table);
  const columns = columnsOf(model, s.flavor);
  const present = await existingColumns(client, target);
  if (present === null) {
    await client.query(createTableSql(target, columns));
    return `Created table ${target} for the ${model} model.`;
  }
  const missing = missingOf(columns, present);
  if (missing.length > 0) {
    throw new DeliveryError(
      `${label(s)}: table ${target} exists but lacks the ${model} model's column${missing.length === 1 ? '' : 's'} ` +
        `${missing.join(', ')}. Add ${missing.length === 1 ? 'it' : 'them'}, drop the table so it is created, or choose another table name.`,
      false,
    );
  }
  return `Writing into the existing table ${target}.`;
}

/**
 * Writes rows: on Postgres one COPY (its text format), on Redshift, which takes no COPY from the
 * client, INSERT statements of at most ROWS_PER_INSERT rows.
 */
async function writeRows(
  client: pg.Client,
  flavor: Flavor,
  target: string,
  columns: readonly Column[],
  rows: Cell[][],
): Promise<void> {
  if (flavor === 'postgres') {
    await pipeline(Readable.from([copyText(rows)]), client.query(copyFrom(copySql(target, columns))));
    return;
  }
  for (let from = 0; from < rows.length; from += ROWS_PER_INSERT) {
    const part = rows.slice(from, from + ROWS_PER_INSERT);
    await client.query(insertSql(target, columns, part.length), part.flat());
  }
}

/**
 * Writes one interval in one transaction: the interval's earlier rows are deleted (events: the
 * project's rows with a timestamp in the interval; persons: the rows of the distinct ids in each
 * batch), then the records are written, a COPY (or INSERTs) a batch. A rerun therefore replaces
 * what an earlier run wrote, and a failure rolls everything back, so a table never holds part of
 * an interval. The next batch is read and turned into rows while the server writes the one before.
 */
async function writeInterval(client: pg.Client, s: PgSettings, context: DeliveryContext): Promise<number> {
  const { records, model, interval, total, log, progress } = context;
  const target = qualified(s.schema, s.table);
  const columns = columnsOf(model, s.flavor);
  let sent = 0;
  let batch = 0;
  let cleared = false;
  let writing: Promise<void> | null = null;

  const write = async (number: number, team: string, ids: string[], rows: Cell[][], count: number) => {
    try {
      if (model === 'events' && !cleared) {
        cleared = true;
        const removed = await client.query(deleteEventsSql(target), [team, interval.start, interval.end]);
        if (removed.rowCount) log('INFO', `Replacing ${removed.rowCount} rows an earlier run wrote for this interval.`);
      }
      if (model === 'persons') await client.query(deletePersonsSql(target, ids.length), [team, ...ids]);
      await writeRows(client, s.flavor, target, columns, rows);
    } catch (error) {
      throw deliveryError(
        error,
        s,
        `inserting batch ${number}`,
        ` Nothing of this interval was kept (${sent} of ${total} records had been written).`,
      );
    }
    sent += count;
    progress(sent);
    log('DEBUG', `Batch ${number}: ${count} records written to ${target} (${sent} of ${total}).`);
  };

  const batches = records.batches(READ_BATCH);
  try {
    // The next batch is asked for before this one is turned into rows: the event store's query runs meanwhile.
    let reading = batches.next();
    for (;;) {
      const { value: chunk, done } = await reading;
      if (done) break;
      reading = batches.next();
      // Its failure is awaited with the next round; until then (or if a write fails first) it is not unhandled.
      reading.catch(() => undefined);
      if (chunk.length === 0) continue;
      batch += 1;
      const rows = chunk.flatMap((record) => rowsOf(model, s.flavor, record));
      const ids = model === 'persons' ? [...new Set(chunk.map((r) => String(r.distinct_id)))] : [];
      if (writing) await writing;
      writing = write(batch, String(chunk[0]!.team_id), ids, rows, chunk.length);
      writing.catch(() => undefined);
    }
    if (writing) await writing;
  } finally {
    await batches.return(undefined).catch(() => undefined);
  }
  return sent;
}

function deliverTo(flavor: Flavor): Deliver {
  return async (context, options) => {
    const s = settingsOf(flavor, context.config);
    const { log } = context;
    let client: pg.Client | undefined;
    try {
      const address = await addressOf(s, options).catch((error: unknown) => {
        throw deliveryError(error, s, 'resolving the host');
      });
      client = await connectClient(s, address).catch((error: unknown) => {
        throw deliveryError(error, s, 'connecting');
      });
      log('INFO', `Connected to ${label(s)} as ${s.user} ${transportOf(client, s)}.`);
      const c = client;
      log(
        'INFO',
        await ensureTable(c, s, context.model).catch((error: unknown) => {
          throw deliveryError(error, s, 'preparing the table');
        }),
      );
      await c.query('BEGIN').catch((error: unknown) => {
        throw deliveryError(error, s, 'starting the transaction');
      });
      let sent: number;
      try {
        sent = await writeInterval(c, s, context);
        await c.query('COMMIT').catch((error: unknown) => {
          throw deliveryError(
            error,
            s,
            'committing',
            ` Nothing of this interval was kept (${context.total} records had been written).`,
          );
        });
      } catch (error) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      log('INFO', `Committed ${sent} records to ${qualified(s.schema, s.table)}.`);
      return sent;
    } finally {
      await client?.end().catch(() => undefined);
    }
  };
}

/** TCP, then TLS when the server offers it (required with a self-signed certificate): what "Connect" reports. */
function probeTransport(s: PgSettings, address: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port: s.port, timeout: CONNECT_TIMEOUT_MS });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once('timeout', () => fail(Object.assign(new Error('the connection timed out'), { code: 'ETIMEDOUT' })));
    socket.once('error', fail);
    socket.once('connect', () => {
      // SSLRequest: length 8, code 80877103; the server answers one byte, S or N.
      const request = Buffer.alloc(8);
      request.writeInt32BE(8, 0);
      request.writeInt32BE(80877103, 4);
      socket.write(request);
    });
    socket.once('data', (answer: Buffer) => {
      socket.removeListener('error', fail);
      if (answer[0] !== 0x53) {
        socket.destroy();
        if (s.selfSignedCert)
          reject(
            new Error(
              'TLS: the server does not accept TLS connections, which a self-signed certificate setting requires',
            ),
          );
        else resolve(`Reached ${address}:${s.port}; the server offers no TLS, so the connection is plain TCP.`);
        return;
      }
      const secure = tls.connect({ ...tlsOptions(s), socket });
      secure.once('secureConnect', () => {
        secure.destroy();
        resolve(`Reached ${address}:${s.port} over TLS (${certificateWords(s)}).`);
      });
      secure.once('error', (error) => {
        secure.destroy();
        reject(error);
      });
    });
  });
}

function checkOf(flavor: Flavor): CheckConnection {
  return (config, options) => {
    const s = settingsOf(flavor, config);
    const target = qualified(s.schema, s.table);
    let address = '';
    let client: pg.Client | undefined;
    const session = () => client!;
    // Server errors get their SQLSTATE and what to do about it; other failures keep their kind (DNS, TLS, refused).
    const named = (run: () => Promise<string>) => () =>
      run().catch((error: unknown) => {
        throw sqlState(error) ? new Error(reason(error, s)) : error;
      });
    return runSteps(
      [
        {
          step: 'Resolve host',
          run: async () => {
            const list = await resolveDestinationHost(s.host, { allowHosts: options.allowHosts ?? [] });
            address = list[0]!.address;
            return `${s.host} is ${list.map((a) => a.address).join(', ')}.`;
          },
        },
        { step: 'Connect', run: named(() => probeTransport(s, address)) },
        {
          step: 'Authenticate',
          run: named(async () => {
            client = await connectClient(s, address);
            return `Logged in to database ${s.database} as ${s.user}.`;
          }),
        },
        {
          step: 'Create and drop a test table',
          run: named(async () => {
            const probe = qualified(s.schema, `batch_export_check_${Date.now().toString(36)}`);
            await session().query(`CREATE TABLE ${probe} (${escapeIdentifier('id')} INTEGER)`);
            await session().query(`DROP TABLE ${probe}`);
            return `The user may create tables in schema ${s.schema}.`;
          }),
        },
        {
          step: 'Table',
          run: named(async () => {
            const present = await existingColumns(session(), target);
            if (present === null) return `${target} does not exist yet: the first run creates it.`;
            const fits = (['events', 'persons'] as const).map((model) => ({
              model,
              missing: missingOf(columnsOf(model, flavor), present),
            }));
            const match = fits.find((f) => f.missing.length === 0);
            if (match) return `${target} exists with the ${match.model} model's columns.`;
            const closest = fits[0]!.missing.length <= fits[1]!.missing.length ? fits[0]! : fits[1]!;
            throw new Error(
              `${target} exists but lacks the ${closest.model} model's columns ${closest.missing.join(', ')}.`,
            );
          }),
        },
      ],
      async () => {
        await client?.end();
      },
    );
  };
}

export const postgresDestination: Destination = { deliver: deliverTo('postgres'), check: checkOf('postgres') };
export const redshiftDestination: Destination = { deliver: deliverTo('redshift'), check: checkOf('redshift') };
