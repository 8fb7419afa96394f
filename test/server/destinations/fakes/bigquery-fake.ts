import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Google's OAuth token endpoint and the BigQuery REST calls the official client
 * makes for a batch export (datasets.get, tables get/insert/delete, load jobs by multipart
 * upload, query jobs running the export's MERGE, jobs.get). It keeps its tables in memory so
 * tests can look at what a run left behind. The token endpoint checks the JWT's signature with
 * the service account's public key: a run signed with another key is refused as Google does.
 */

export interface FakeTable {
  fields: { name: string; type: string; mode?: string }[];
  timePartitioning?: { type: string; field?: string };
  rows: Record<string, unknown>[];
}

export interface BigQueryFakeOptions {
  project: string;
  datasets: string[];
  clientEmail: string;
  publicKey: crypto.KeyObject;
}

interface Job {
  jobReference: { projectId: string; jobId: string; location?: string };
  configuration: unknown;
  status: { state: 'DONE'; errorResult?: unknown; errors?: unknown[] };
}

const b64url = (s: string) => Buffer.from(s, 'base64url');

function apiError(res: http.ServerResponse, code: number, reason: string, message: string, status: string) {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: { code, message, errors: [{ message, domain: 'global', reason }], status } }));
}

const json = (res: http.ServerResponse, body: unknown, code = 200) => {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** The parts of a multipart/related body (the load job's metadata, then its data). */
function multipartParts(body: Buffer, contentType: string): string[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) return [];
  return body
    .toString('utf8')
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, ''));
}

export function startBigQueryFake(options: BigQueryFakeOptions) {
  const tables = new Map<string, FakeTable>();
  const jobs = new Map<string, Job>();
  const tokens = new Set<string>();
  const state = {
    tables,
    /** Every SQL text run as a query job. */
    queries: [] as string[],
    /** Every request: method and path (no bodies, no headers). */
    requests: [] as string[],
    /** Called as each load job's upload arrives (tests look at the run meanwhile). */
    onUpload: undefined as (() => void) | undefined,
    /** Answer the next API calls with this status (a 5xx outage), then recover. */
    failNext: { status: 0, count: 0 },
  };
  const key = (dataset: string, table: string) => `${dataset}.${table}`;

  function token(body: string, res: http.ServerResponse) {
    const form = new URLSearchParams(body);
    const [head, payload, signature] = (form.get('assertion') ?? '').split('.');
    const valid =
      head &&
      payload &&
      signature &&
      crypto.verify('RSA-SHA256', Buffer.from(`${head}.${payload}`), options.publicKey, b64url(signature)) &&
      (JSON.parse(b64url(payload).toString()) as { iss?: string }).iss === options.clientEmail;
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !valid) {
      return json(res, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }, 400);
    }
    const access = crypto.randomBytes(16).toString('hex');
    tokens.add(access);
    return json(res, { access_token: access, expires_in: 3599, token_type: 'Bearer' });
  }

  function finishJob(project: string, jobId: string, configuration: unknown, run: () => string | null): Job {
    const error = run();
    const job: Job = {
      jobReference: { projectId: project, jobId },
      configuration,
      status: error
        ? {
            state: 'DONE',
            errorResult: { reason: 'invalid', message: error },
            errors: [{ reason: 'invalid', message: error }],
          }
        : { state: 'DONE' },
    };
    jobs.set(jobId, job);
    return job;
  }

  function load(
    metadata: { configuration: { load: { destinationTable: { datasetId: string; tableId: string } } } },
    data: string,
  ): string | null {
    const { datasetId, tableId } = metadata.configuration.load.destinationTable;
    const table = tables.get(key(datasetId, tableId));
    if (!table) return `Not found: Table ${options.project}:${datasetId}.${tableId}`;
    const names = new Set(table.fields.map((f) => f.name));
    const rows = data
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const unknown = rows.flatMap((r) => Object.keys(r)).find((k) => !names.has(k));
    if (unknown) return `Error while reading data: no such field: ${unknown}.`;
    table.rows.push(...rows);
    return null;
  }

  /** The export's MERGE: rows of the stage table replace rows with the same key, the rest are added. */
  function merge(sql: string): string | null {
    const ref = '`([^`]+)`\\.`([^`]+)`\\.`([^`]+)`';
    const m = new RegExp(`^MERGE ${ref} AS final\\s+USING ${ref} AS stage\\s+ON (.+)\\n`).exec(sql);
    const insert = /INSERT \(([^)]*)\) VALUES/.exec(sql);
    if (!m || !insert) return `Syntax error: this stand-in runs only the export's MERGE: ${sql.slice(0, 60)}`;
    const target = tables.get(key(m[2]!, m[3]!));
    const stage = tables.get(key(m[5]!, m[6]!));
    if (!target || !stage) return `Not found: Table ${m[1]}:${target ? m[5] : m[2]}.${target ? m[6] : m[3]}`;
    const keys = [...m[7]!.matchAll(/final\.`(\w+)` = stage\.`\1`/g)].map((k) => k[1]!);
    const columns = [...insert[1]!.matchAll(/`(\w+)`/g)].map((c) => c[1]!);
    for (const row of stage.rows) {
      const picked = Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));
      const at = target.rows.findIndex((t) => keys.every((k) => t[k] === row[k]));
      if (at >= 0) target.rows[at] = picked;
      else target.rows.push(picked);
    }
    return null;
  }

  function api(method: string, path: string, body: Buffer, contentType: string, res: http.ServerResponse) {
    const parts = path
      .replace(/^\/(upload\/)?bigquery\/v2/, '')
      .split('/')
      .filter(Boolean)
      .map(decodeURIComponent);
    const [, project, kind, dataset, sub, table] = parts;
    if (parts[0] !== 'projects' || project !== options.project)
      return apiError(res, 404, 'notFound', `Not found: Project ${project}`, 'NOT_FOUND');
    if (kind === 'jobs') {
      if (method === 'GET' && dataset) {
        const job = jobs.get(dataset);
        return job
          ? json(res, job)
          : apiError(res, 404, 'notFound', `Not found: Job ${project}:${dataset}`, 'NOT_FOUND');
      }
      if (method === 'POST' && path.startsWith('/upload/')) {
        state.onUpload?.();
        const [meta, data] = multipartParts(body, contentType);
        const metadata = JSON.parse(meta ?? '{}');
        return json(
          res,
          finishJob(project, metadata.jobReference?.jobId ?? crypto.randomUUID(), metadata.configuration, () =>
            load(metadata, data ?? ''),
          ),
        );
      }
      if (method === 'POST') {
        const metadata = JSON.parse(body.toString());
        const sql = String(metadata.configuration?.query?.query ?? '');
        state.queries.push(sql);
        return json(
          res,
          finishJob(project, metadata.jobReference?.jobId ?? crypto.randomUUID(), metadata.configuration, () =>
            merge(sql),
          ),
        );
      }
    }
    if (kind !== 'datasets' || !dataset)
      return apiError(res, 400, 'invalid', `Unsupported call ${method} ${path}`, 'INVALID_ARGUMENT');
    if (!options.datasets.includes(dataset))
      return apiError(res, 404, 'notFound', `Not found: Dataset ${project}:${dataset}`, 'NOT_FOUND');
    if (!sub)
      return json(res, {
        kind: 'bigquery#dataset',
        id: `${project}:${dataset}`,
        datasetReference: { projectId: project, datasetId: dataset },
      });
    const reference = (id: string) => ({
      kind: 'bigquery#table',
      id: `${project}:${dataset}.${id}`,
      tableReference: { projectId: project, datasetId: dataset, tableId: id },
    });
    if (method === 'POST' && !table) {
      const metadata = JSON.parse(body.toString());
      const id = String(metadata.tableReference?.tableId);
      if (tables.has(key(dataset, id)))
        return apiError(res, 409, 'duplicate', `Already Exists: Table ${project}:${dataset}.${id}`, 'ALREADY_EXISTS');
      const created: FakeTable = {
        fields: metadata.schema?.fields ?? [],
        rows: [],
        ...(metadata.timePartitioning ? { timePartitioning: metadata.timePartitioning } : {}),
      };
      tables.set(key(dataset, id), created);
      return json(res, {
        ...reference(id),
        schema: { fields: created.fields },
        timePartitioning: created.timePartitioning,
      });
    }
    const found = table ? tables.get(key(dataset, table)) : undefined;
    if (!table || !found)
      return apiError(res, 404, 'notFound', `Not found: Table ${project}:${dataset}.${table}`, 'NOT_FOUND');
    if (method === 'GET')
      return json(res, {
        ...reference(table),
        schema: { fields: found.fields },
        timePartitioning: found.timePartitioning,
      });
    if (method === 'DELETE') {
      tables.delete(key(dataset, table));
      res.writeHead(204).end();
      return;
    }
    return apiError(res, 400, 'invalid', `Unsupported call ${method} ${path}`, 'INVALID_ARGUMENT');
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://fake');
      state.requests.push(`${req.method} ${url.pathname}`);
      if (url.pathname === '/token') return token(body.toString(), res);
      if (state.failNext.count > 0) {
        state.failNext.count -= 1;
        return apiError(res, state.failNext.status, 'backendError', 'Backend error. Please try again.', 'UNAVAILABLE');
      }
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !tokens.has(bearer))
        return apiError(res, 401, 'authError', 'Request had invalid authentication credentials.', 'UNAUTHENTICATED');
      try {
        api(req.method ?? 'GET', url.pathname, body, req.headers['content-type'] ?? '', res);
      } catch (error) {
        apiError(res, 500, 'internalError', `Fake failed: ${String(error)}`, 'INTERNAL');
      }
    });
  });
  const ready = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  return {
    state,
    ready,
    /** The rows of `dataset.table`, or undefined when the table does not exist. */
    rows: (dataset: string, table: string) => tables.get(key(dataset, table))?.rows,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
