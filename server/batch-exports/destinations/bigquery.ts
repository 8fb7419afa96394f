import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { BigQuery, Dataset, Job, Table, TableField } from '@google-cloud/bigquery';
import { BIGQUERY_TOKEN_URI } from '../../../src/contract/index.ts';
import {
  BlockedDestinationError,
  guardedLookup,
  isAllowedHost,
  resolveDestinationHost,
  type OutboundPolicy,
} from '../../net/outbound.ts';
import { describeFailure, runSteps } from './check.ts';
import {
  DeliveryError,
  type CheckConnection,
  type Deliver,
  type Destination,
  type DestinationOptions,
} from './types.ts';
import { stageTableName, warehouseTable, type ColumnKind, type WarehouseTable } from './warehouse-columns.ts';

export interface BigQueryOptions extends DestinationOptions {
  /** The API root instead of https://bigquery.googleapis.com: only tests set it, to a local stand-in. */
  bigQueryApiEndpoint?: string;
}

/** Records per load job: each job is one upload, and BigQuery limits load jobs per table and day. */
const DEFAULT_LOAD_BATCH = 10_000;
const GOOGLE_API = 'https://bigquery.googleapis.com';
const DEFAULT_TIMEOUT_MS = 30_000;

const TYPES: Record<ColumnKind, string> = {
  string: 'STRING',
  json: 'STRING',
  integer: 'INT64',
  timestamp: 'TIMESTAMP',
  boolean: 'BOOL',
};

/** The table's schema: JSON columns are kept as JSON text (production's default, `use_json_type` off). */
export function bigQuerySchema(table: WarehouseTable): TableField[] {
  return table.columns.map(({ name, kind }) => ({ name, type: TYPES[kind], mode: 'NULLABLE' }));
}

/** One newline-delimited JSON row of a load job: JSON columns as text, absent values as null. */
export function bigQueryRow(table: WarehouseTable, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    table.columns.map(({ name, kind }) => {
      const value = values[name] ?? null;
      return [name, kind === 'json' && value !== null ? JSON.stringify(value) : value];
    }),
  );
}

const quote = (id: string) => `\`${id.replace(/[\\`]/g, (c) => `\\${c}`)}\``;
const path = (project: string, dataset: string, table: string) => `${quote(project)}.${quote(dataset)}.${quote(table)}`;

/**
 * Moves a run's stage table into the export's table: rows whose key is already there are
 * replaced, the others inserted, so running an interval again leaves each record once.
 */
export function bigQueryMergeSql(
  table: WarehouseTable,
  project: string,
  dataset: string,
  target: string,
  stage: string,
): string {
  const names = table.columns.map((c) => quote(c.name));
  return [
    `MERGE ${path(project, dataset, target)} AS final`,
    `USING ${path(project, dataset, stage)} AS stage`,
    `ON ${table.key.map((k) => `final.${quote(k)} = stage.${quote(k)}`).join(' AND ')}`,
    `WHEN MATCHED THEN UPDATE SET ${names.map((n) => `final.${n} = stage.${n}`).join(', ')}`,
    `WHEN NOT MATCHED THEN INSERT (${names.join(', ')}) VALUES (${names.map((n) => `stage.${n}`).join(', ')})`,
  ].join('\n');
}

interface Target {
  project: string;
  dataset: string;
  table: string;
}

const targetOf = (config: Record<string, unknown>): Target => ({
  project: String(config.project_id),
  dataset: String(config.dataset_id),
  table: String(config.table_id),
});

/**
 * A client signed in as the config's service account. Google's Node auth library always asks
 * Google's token endpoint; the config's `token_uri` (as the production service honours it) is
 * put in its place on the way out, through a socket that the outbound guard checks.
 */
async function openClient(config: Record<string, unknown>, options: BigQueryOptions): Promise<BigQuery> {
  const policy: OutboundPolicy = { allowHosts: options.allowHosts ?? [] };
  const tokenUri = new URL(String(config.token_uri ?? BIGQUERY_TOKEN_URI));
  const apiEndpoint = options.bigQueryApiEndpoint ?? GOOGLE_API;
  if (tokenUri.protocol !== 'https:' && tokenUri.protocol !== 'http:')
    throw new BlockedDestinationError(`${tokenUri.protocol} URLs are not allowed`);
  // The API host is the server's own choice, the token host the user's: both are checked here,
  // and the token request's socket once more when it connects.
  await resolveDestinationHost(tokenUri.hostname, policy);
  await resolveDestinationHost(new URL(apiEndpoint).hostname, policy);

  const { BigQuery: Client } = await import('@google-cloud/bigquery');
  const client = new Client({
    projectId: String(config.project_id),
    credentials: {
      // A key copied out of the JSON key file may keep its escaped line breaks.
      client_email: String(config.client_email),
      private_key: String(config.private_key).replace(/\\n/g, '\n'),
      private_key_id: String(config.private_key_id),
    } as { client_email: string; private_key: string },
    apiEndpoint,
    autoRetry: false,
    maxRetries: 0,
    scopes: ['https://www.googleapis.com/auth/cloud-platform'],
  });
  const auth = await client.authClient.getClient();
  const agent = isAllowedHost(tokenUri.hostname, policy)
    ? undefined
    : new (tokenUri.protocol === 'https:' ? https.Agent : http.Agent)({
        lookup: guardedLookup(tokenUri.hostname, policy),
      });
  auth.transporter.interceptors.request.add({
    resolved: (request) => {
      if (String(request.url) === new URL(BIGQUERY_TOKEN_URI).href) {
        request.url = tokenUri;
        if (agent) request.agent = agent;
        // One attempt: the run retries a failed delivery as a whole.
        request.retryConfig = { ...request.retryConfig, retry: 0 };
        request.timeout = options.httpTimeoutMs ?? DEFAULT_TIMEOUT_MS;
      }
      return Promise.resolve(request);
    },
  });
  return client;
}

interface GoogleError {
  code?: unknown;
  message?: unknown;
  errors?: { reason?: string }[];
  response?: { status?: number; data?: { error?: unknown; error_description?: unknown } };
}

/** What went wrong, in words (never a config value), and whether trying again can help. */
function explain(error: unknown): { text: string; retryable: boolean } {
  if (error instanceof BlockedDestinationError)
    return { text: `refused, ${error.message}. This server only connects to public addresses`, retryable: false };
  const e = (error ?? {}) as GoogleError;
  if (typeof e.code === 'string' && /^ERR_(OSSL|CRYPTO)/.test(e.code)) {
    return {
      text: "the private key could not be read (expected the PEM private key of the service account's JSON key file)",
      retryable: false,
    };
  }
  const oauth = e.response?.data?.error;
  if (typeof oauth === 'string') {
    const status = e.response?.status ?? 0;
    const retryable = status >= 500 || status === 429;
    const description =
      typeof e.response?.data?.error_description === 'string' ? `: ${e.response.data.error_description}` : '';
    return {
      text: `${retryable ? 'the token endpoint failed' : "authentication failed, the service account's key was refused"} (${oauth}${description})`,
      retryable,
    };
  }
  const status = typeof e.code === 'number' ? e.code : e.response?.status;
  const reason = e.errors?.[0]?.reason;
  const detail = describeFailure(error).replace(/\.$/, '');
  if (typeof status !== 'number') return { text: detail, retryable: true }; // the network: DNS, refused, reset, timed out
  const kind =
    status === 401
      ? 'authentication failed'
      : status === 403
        ? 'permission denied'
        : status === 404
          ? 'not found'
          : `answered ${status}`;
  const retryable =
    status >= 500 || status === 429 || status === 408 || reason === 'rateLimitExceeded' || reason === 'backendError';
  return { text: `${kind} (${detail})`, retryable };
}

/** A BigQuery or token endpoint failure as a DeliveryError: retryable only when trying again can help. */
export function bigQueryFailure(error: unknown, doing: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const { text, retryable } = explain(error);
  return new DeliveryError(`BigQuery ${doing}: ${text}.`, retryable);
}

/** A connection test step's failure: the cause, capitalised, as a sentence. */
const stepFailure = (error: unknown) => {
  const { text } = explain(error);
  return new Error(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
};

/** Creates the table with the model's columns unless it exists (partitioned by day on `timestamp`, as production does). */
async function ensureTable(dataset: Dataset, id: string, table: WarehouseTable): Promise<Table> {
  const existing = dataset.table(id);
  const [exists] = await existing.exists();
  if (exists) return existing;
  const schema = bigQuerySchema(table);
  const partition = schema.some((f) => f.name === 'timestamp')
    ? { timePartitioning: { type: 'DAY', field: 'timestamp' } }
    : {};
  try {
    const [created] = await dataset.createTable(id, { schema, ...partition });
    return created;
  } catch (error) {
    // Another run created it in the meantime.
    if ((error as GoogleError).code === 409) return existing;
    throw error;
  }
}

/** Runs one load job of newline-delimited JSON into `table` and waits for it. */
async function loadRows(table: Table, schema: TableField[], rows: readonly Record<string, unknown>[]): Promise<void> {
  const body = `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
  const job = await new Promise<Job>((resolve, reject) => {
    const stream = table.createWriteStream({
      sourceFormat: 'NEWLINE_DELIMITED_JSON',
      schema: { fields: schema },
      writeDisposition: 'WRITE_APPEND',
    });
    stream.on('job', (started: Job) => resolve(started));
    stream.on('error', reject);
    Readable.from([body]).pipe(stream);
  });
  await job.promise();
}

async function runQuery(client: BigQuery, query: string): Promise<void> {
  const [job] = await client.createQueryJob({ query, useLegacySql: false });
  await job.promise();
}

/**
 * BigQuery, as the production service loads it: the interval's records go by load jobs (JSON
 * lines) into a stage table of their own, which one MERGE then moves into the export's table
 * (created with the model's columns when missing), so a rerun replaces rows instead of adding
 * them. The stage table is dropped at the end. An interval without records touches nothing.
 */
export const deliverBigQuery: Deliver = async (context, options: BigQueryOptions) => {
  const { config, records, total, log, model, interval, exportId, progress } = context;
  const target = targetOf(config);
  const name = `${target.project}.${target.dataset}.${target.table}`;
  if (total === 0) {
    log('INFO', `No records to export to BigQuery table ${name}.`);
    return 0;
  }
  const table = warehouseTable(model, 'bigquery');
  const schema = bigQuerySchema(table);
  let client: BigQuery;
  try {
    client = await openClient(config, options);
  } catch (error) {
    throw bigQueryFailure(error, 'could not connect');
  }
  try {
    await (await client.authClient.getClient()).getAccessToken();
  } catch (error) {
    throw bigQueryFailure(error, `could not sign in as ${String(config.client_email)}`);
  }
  const dataset = client.dataset(target.dataset);
  let step = `could not create table ${name}`;
  let stage: Table | undefined;
  try {
    await ensureTable(dataset, target.table, table);
    const stageId = stageTableName(target.table, interval.end, exportId);
    step = `could not create stage table ${stageId}`;
    await dataset.table(stageId).delete({ ignoreNotFound: true });
    [stage] = await dataset.createTable(stageId, { schema });
    let sent = 0;
    let batch = 0;
    for await (const chunk of records.batches(options.httpBatchSize ?? DEFAULT_LOAD_BATCH)) {
      batch += 1;
      step = `load job ${batch} failed (${sent} of ${total} records loaded)`;
      const now = new Date();
      await loadRows(
        stage,
        schema,
        chunk.map((r) => bigQueryRow(table, table.row(r, now))),
      );
      sent += chunk.length;
      progress(sent);
      log('DEBUG', `Load job ${batch}: ${chunk.length} records into the stage table (${sent} of ${total}).`);
    }
    step = `could not merge the stage table into ${name}`;
    await runQuery(client, bigQueryMergeSql(table, target.project, target.dataset, target.table, stageId));
    log('INFO', `${sent} records merged into BigQuery table ${name}.`);
    return sent;
  } catch (error) {
    throw bigQueryFailure(error, step);
  } finally {
    await stage
      ?.delete({ ignoreNotFound: true })
      .catch(() => log('WARNING', `Could not drop the stage table ${stage?.id ?? ''}.`));
  }
};

/** Test connection: a token for the service account, its dataset, and a table created and dropped in it. */
const checkBigQuery: CheckConnection = (config, options: BigQueryOptions) => {
  const target = targetOf(config);
  let client: BigQuery | undefined;
  return runSteps(
    [
      {
        step: 'Authenticate',
        run: async () => {
          client = await openClient(config, options);
          await (await client.authClient.getClient()).getAccessToken();
          return `Signed in as ${String(config.client_email)}.`;
        },
      },
      {
        step: 'Find the dataset',
        run: async () => {
          await client!.dataset(target.dataset).get();
          return `Dataset ${target.project}.${target.dataset} found.`;
        },
      },
      {
        step: 'Create and drop a test table',
        run: async () => {
          const id = `posthog_test_${Date.now().toString(36)}`;
          const [created] = await client!
            .dataset(target.dataset)
            .createTable(id, { schema: [{ name: 'id', type: 'STRING' }] });
          await created.delete();
          return `Table ${id} created and dropped.`;
        },
      },
    ].map(({ step, run }) => ({
      step,
      run: () =>
        run().catch((error: unknown) => {
          throw stepFailure(error);
        }),
    })),
  );
};

export const bigQueryDestination: Destination = { deliver: deliverBigQuery, check: checkBigQuery };
