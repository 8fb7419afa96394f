import net from 'node:net';
import { TLSSocket, type ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { BlockedDestinationError, resolveDestinationHost } from '../../net/outbound.ts';
import { describeFailure } from './check.ts';
import type { Flavor } from './postgres-sql.ts';
import { DeliveryError, type DestinationOptions } from './types.ts';

/** The connection settings of a Postgres or Redshift destination, read from its stored config. */
export interface PgSettings {
  flavor: Flavor;
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  schema: string;
  table: string;
  selfSignedCert: boolean;
}

export const CONNECT_TIMEOUT_MS = 10_000;
/** A statement that takes longer than this is taken for a hung server (the attempt is retried). */
export const QUERY_TIMEOUT_MS = 120_000;

export function settingsOf(flavor: Flavor, config: Record<string, unknown>): PgSettings {
  return {
    flavor,
    host: String(config.host ?? ''),
    port: Number(config.port ?? (flavor === 'redshift' ? 5439 : 5432)),
    database: String(config.database ?? ''),
    user: String(config.user ?? ''),
    password: String(config.password ?? ''),
    schema: String(config.schema ?? 'public'),
    table: String(config.table_name ?? 'events'),
    selfSignedCert: config.has_self_signed_cert === true,
  };
}

export const label = (s: PgSettings) =>
  `${s.flavor === 'redshift' ? 'Redshift' : 'Postgres'} destination ${s.host}:${s.port}/${s.database}`;

/** The checked address to connect to: the host through the outbound guard. */
export async function addressOf(s: PgSettings, options: DestinationOptions): Promise<string> {
  const [first] = await resolveDestinationHost(s.host, { allowHosts: options.allowHosts ?? [] });
  if (!first) throw new BlockedDestinationError(`${s.host} resolves to no address`);
  return first.address;
}

/**
 * TLS options that verify against the configured host name although the socket goes to the
 * checked IP address; `rejectUnauthorized: false` only when the user says the certificate is
 * self-signed.
 */
export function tlsOptions(s: PgSettings): ConnectionOptions {
  const byName = net.isIP(s.host) === 0;
  return {
    host: s.host,
    ...(byName ? { servername: s.host } : {}),
    rejectUnauthorized: !s.selfSignedCert,
  };
}

const NO_TLS = 'The server does not support SSL connections';

/** How the certificate was taken, for the log and the connection test. */
export const certificateWords = (s: PgSettings) =>
  s.selfSignedCert ? 'certificate not verified: self-signed' : 'certificate verified';

/** The transport a logged-in client uses, in words: TLS (and how its certificate was taken) or plain TCP. */
export const transportOf = (client: pg.Client, s: PgSettings) =>
  client.connection.stream instanceof TLSSocket
    ? `over TLS (${certificateWords(s)})`
    : 'over plain TCP (the server offers no TLS)';

/**
 * A logged-in client. With a self-signed certificate TLS is required (not verified); otherwise TLS
 * is tried with verification, and a server that offers no TLS at all (a local or private
 * database) is used in plain TCP. A certificate that fails verification is never downgraded.
 */
export async function connectClient(s: PgSettings, address: string): Promise<pg.Client> {
  const open = async (ssl: ConnectionOptions | false) => {
    const client = new pg.Client({
      host: address,
      port: s.port,
      user: s.user,
      password: s.password,
      database: s.database,
      ssl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      keepAlive: true,
      application_name: 'batch-export',
    });
    // A socket that dies between statements is reported by the next query; this keeps it from crashing the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  };
  try {
    return await open(tlsOptions(s));
  } catch (error) {
    if (!s.selfSignedCert && error instanceof Error && error.message.includes(NO_TLS)) return open(false);
    throw error;
  }
}

const RETRYABLE_NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
// Connection exceptions, serialization failures and deadlocks, resources, operator intervention, system errors.
const RETRYABLE_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57', '58']);

const SQLSTATE_HINTS: Record<string, string> = {
  '28P01': 'check the user and password',
  '28000': 'the server refuses this user (check pg_hba.conf and the user name)',
  '3D000': 'check the database name',
  '3F000': 'create the schema or correct its name',
  '42501': 'grant the user CREATE and INSERT on the schema and table, or use another user',
};

/** The error's SQLSTATE when it is a server error (five characters), else undefined. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** A failure in words, with the password never in it (a server may echo what it was sent). */
export function reason(error: unknown, s: PgSettings): string {
  const state = sqlState(error);
  let text: string;
  if (state) {
    const message = (error as Error).message;
    const hint = SQLSTATE_HINTS[state];
    text = `${message} (SQLSTATE ${state})${hint ? `: ${hint}` : ''}`;
  } else if (error instanceof Error && error.message.includes(NO_TLS)) {
    text = 'TLS: the server does not accept TLS connections, which a self-signed certificate setting requires';
  } else if (error instanceof Error && /timeout/i.test(error.message) && !(error as { code?: unknown }).code) {
    text = `timed out (${error.message})`;
  } else {
    text = describeFailure(error).replace(/\.$/, '');
  }
  return s.password ? text.replaceAll(s.password, '[password]') : text;
}

/** Whether another attempt may succeed: the network or the server's state, never the config. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof BlockedDestinationError || error instanceof DeliveryError) return false;
  const state = sqlState(error);
  if (state) return RETRYABLE_SQLSTATE_CLASSES.has(state.slice(0, 2));
  const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  if (typeof code === 'string') return RETRYABLE_NETWORK.has(code);
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout|timed out|ended unexpectedly/i.test(message);
}

/** The DeliveryError for a failure at `stage` ("connecting", "creating the table", "inserting batch 3"). */
export function deliveryError(error: unknown, s: PgSettings, stage: string, progress = ''): DeliveryError {
  if (error instanceof DeliveryError) return error;
  if (error instanceof BlockedDestinationError) {
    return new DeliveryError(
      `${label(s)} is not allowed: ${error.message}. This server only connects to public addresses.`,
      false,
    );
  }
  return new DeliveryError(`${label(s)} failed while ${stage}: ${reason(error, s)}.${progress}`, isRetryable(error));
}
