import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * A stand-in for the Snowflake service endpoints the official Node driver calls: the session
 * login, query requests (the statements of a batch export: USE, CREATE/DROP TABLE, PUT, COPY
 * INTO, MERGE) and session close. A PUT is answered with a stage on the local disk (the driver's
 * LOCAL_FS stage type), so the driver compresses and writes the file itself and COPY INTO reads
 * it back. Answers take Snowflake's shapes: a login failure is `success: false` with code 390100.
 */

export interface SnowflakeFakeOptions {
  user: string;
  password: string;
  warehouses: string[];
  /** database → schemas */
  databases: Record<string, string[]>;
}

export interface FakeSnowflakeTable {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
}

class SqlError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly sqlState = '02000',
  ) {
    super(message);
  }
}

interface Session {
  warehouse?: string;
  database?: string;
  schema?: string;
}

const column = (name: string, type: string) => ({
  name,
  type,
  nullable: true,
  scale: type === 'fixed' ? 0 : null,
  precision: type === 'fixed' ? 38 : null,
  length: type === 'text' ? 16777216 : null,
  byteLength: type === 'text' ? 16777216 : null,
  database: '',
  schema: '',
  table: '',
  collation: null,
});
const unquote = (id: string) => id.replace(/""/g, '"');

export function startSnowflakeFake(options: SnowflakeFakeOptions) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'snowflake-fake-'));
  const sessions = new Map<string, Session>();
  const state = {
    /** Tables by `database.schema.name`. */
    tables: new Map<string, FakeSnowflakeTable>(),
    /** Every statement text received, in order. */
    statements: [] as string[],
    logins: [] as { user: string; account: string }[],
    /** Answer the next login requests with this HTTP status (an outage), then recover. */
    failNextLogin: { status: 0, count: 0 },
  };

  function tableKey(session: Session, name: string): string {
    if (!session.database || !session.schema)
      throw new SqlError(
        '090105',
        "Cannot perform operation. This session does not have a current database. Call 'USE DATABASE', or use a qualified name.",
        '22000',
      );
    return `${session.database}.${session.schema}.${unquote(name)}`;
  }
  const tableOf = (session: Session, name: string) => {
    const table = state.tables.get(tableKey(session, name));
    if (!table)
      throw new SqlError(
        '002003',
        `SQL compilation error:\nTable '${unquote(name).toUpperCase()}' does not exist or not authorized.`,
      );
    return table;
  };
  const stageDir = (session: Session, table: string, prefix: string) =>
    path.join(root, tableKey(session, table), prefix);

  type Result =
    { rowtype: ReturnType<typeof column>[]; rowset: (string | null)[][] } | { upload: Record<string, unknown> };
  const done = (message: string): Result => ({ rowtype: [column('status', 'text')], rowset: [[message]] });

  function run(session: Session, sql: string): Result {
    let m: RegExpExecArray | null;
    if ((m = /^USE (WAREHOUSE|DATABASE|SCHEMA) "((?:[^"]|"")+)"$/.exec(sql))) {
      const name = unquote(m[2]!);
      const exists =
        m[1] === 'WAREHOUSE'
          ? options.warehouses.includes(name)
          : m[1] === 'DATABASE'
            ? name in options.databases
            : (options.databases[session.database ?? ''] ?? []).includes(name);
      if (!exists)
        throw new SqlError(
          '002043',
          'SQL compilation error:\nObject does not exist, or operation cannot be performed.',
        );
      if (m[1] === 'WAREHOUSE') session.warehouse = name;
      else if (m[1] === 'DATABASE') Object.assign(session, { database: name, schema: 'PUBLIC' });
      else session.schema = name;
      return done('Statement executed successfully.');
    }
    if ((m = /^CREATE TABLE (IF NOT EXISTS )?"((?:[^"]|"")+)" \((.*)\)(?: COMMENT = '[^']*')?$/s.exec(sql))) {
      const key = tableKey(session, m[2]!);
      if (state.tables.has(key)) {
        if (!m[1])
          throw new SqlError('002002', `SQL compilation error:\nObject '${unquote(m[2]!)}' already exists.`, '42710');
        return done(`${unquote(m[2]!)} already exists, statement succeeded.`);
      }
      const columns = [...m[3]!.matchAll(/"((?:[^"]|"")+)" (\w+)/g)].map((c) => ({
        name: unquote(c[1]!),
        type: c[2]!,
      }));
      state.tables.set(key, { columns, rows: [] });
      return done(`Table ${unquote(m[2]!)} successfully created.`);
    }
    if ((m = /^DROP TABLE (IF EXISTS )?"((?:[^"]|"")+)"$/.exec(sql))) {
      if (!state.tables.delete(tableKey(session, m[2]!)) && !m[1]) tableOf(session, m[2]!);
      return done('Drop statement executed successfully.');
    }
    if ((m = /^PUT 'file:\/\/(.+?)' '@%"((?:[^"]|"")+)"\/([^']+)'/.exec(sql))) {
      tableOf(session, m[2]!);
      return {
        upload: {
          command: 'UPLOAD',
          src_locations: [m[1]!],
          autoCompress: true,
          sourceCompression: 'auto_detect',
          parallel: 1,
          overwrite: true,
          encryptionMaterial: null,
          stageInfo: {
            locationType: 'LOCAL_FS',
            location: stageDir(session, m[2]!, m[3]!),
            path: '',
            region: null,
            creds: {},
          },
        },
      };
    }
    if ((m = /^COPY INTO "((?:[^"]|"")+)" FROM '@%"((?:[^"]|"")+)"\/([^']+)'/.exec(sql))) {
      const table = tableOf(session, m[1]!);
      const dir = stageDir(session, m[2]!, m[3]!);
      const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
      const names = new Set(table.columns.map((c) => c.name));
      const rowset = files.map((file) => {
        const raw = fs.readFileSync(path.join(dir, file));
        const lines = (file.endsWith('.gz') ? zlib.gunzipSync(raw) : raw)
          .toString()
          .split('\n')
          .filter((l) => l.trim() !== '');
        // MATCH_BY_COLUMN_NAME = CASE_SENSITIVE: a key loads into the column of that exact name.
        const rows = lines.map((l) =>
          Object.fromEntries(Object.entries(JSON.parse(l) as Record<string, unknown>).filter(([k]) => names.has(k))),
        );
        table.rows.push(...rows);
        if (/PURGE = TRUE/.test(sql)) fs.rmSync(path.join(dir, file));
        return [
          `${m![3]}/${file}`,
          'LOADED',
          String(rows.length),
          String(rows.length),
          '1',
          '0',
          null,
          null,
          null,
          null,
        ];
      });
      return {
        rowtype: [
          column('file', 'text'),
          column('status', 'text'),
          column('rows_parsed', 'fixed'),
          column('rows_loaded', 'fixed'),
          column('error_limit', 'fixed'),
          column('errors_seen', 'fixed'),
          column('first_error', 'text'),
          column('first_error_line', 'fixed'),
          column('first_error_character', 'fixed'),
          column('first_error_column_name', 'text'),
        ],
        rowset:
          rowset.length > 0
            ? rowset
            : [['Copy executed with 0 files processed.', null, null, null, null, null, null, null, null, null]],
      };
    }
    if ((m = /^MERGE INTO "((?:[^"]|"")+)" AS final USING "((?:[^"]|"")+)" AS stage\nON (.+)\n/.exec(sql))) {
      const target = tableOf(session, m[1]!);
      const stage = tableOf(session, m[2]!);
      const keys = [...m[3]!.matchAll(/final\."(\w+)" = stage\."\1"/g)].map((k) => k[1]!);
      const columns = [...(/INSERT \(([^)]*)\)/.exec(sql)?.[1] ?? '').matchAll(/"(\w+)"/g)].map((c) => c[1]!);
      let inserted = 0;
      let updated = 0;
      for (const row of stage.rows) {
        const picked = Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));
        const at = target.rows.findIndex((t) => keys.every((k) => JSON.stringify(t[k]) === JSON.stringify(row[k])));
        if (at >= 0) {
          target.rows[at] = picked;
          updated += 1;
        } else {
          target.rows.push(picked);
          inserted += 1;
        }
      }
      return {
        rowtype: [column('number of rows inserted', 'fixed'), column('number of rows updated', 'fixed')],
        rowset: [[String(inserted), String(updated)]],
      };
    }
    throw new SqlError(
      '001003',
      `SQL compilation error:\nsyntax error line 1 at position 0 unexpected '${sql.slice(0, 20)}'.`,
      '42000',
    );
  }

  const reply = (res: http.ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  function login(
    body: { data?: { LOGIN_NAME?: string; PASSWORD?: string; ACCOUNT_NAME?: string } },
    res: http.ServerResponse,
  ) {
    const data = body.data ?? {};
    state.logins.push({ user: String(data.LOGIN_NAME), account: String(data.ACCOUNT_NAME) });
    if (data.LOGIN_NAME !== options.user || data.PASSWORD !== options.password) {
      return reply(res, {
        data: { nextAction: 'RETRY_LOGIN', authnMethod: 'USERNAME_PASSWORD' },
        code: '390100',
        message: 'Incorrect username or password was specified.',
        success: false,
        headers: null,
      });
    }
    const token = crypto.randomBytes(16).toString('hex');
    sessions.set(token, {});
    return reply(res, {
      data: {
        token,
        masterToken: `master-${token}`,
        validityInSeconds: 3600,
        masterValidityInSeconds: 14400,
        sessionId: Date.now(),
        serverVersion: '9.0.0',
        parameters: [],
        sessionInfo: { databaseName: null, schemaName: null, warehouseName: null, roleName: 'PUBLIC' },
      },
      code: null,
      message: null,
      success: true,
    });
  }

  function query(session: Session, body: { sqlText?: string }, res: http.ServerResponse) {
    const sql = String(body.sqlText ?? '').trim();
    state.statements.push(sql);
    const queryId = crypto.randomUUID();
    try {
      const result = run(session, sql);
      if ('upload' in result)
        return reply(res, {
          data: { ...result.upload, queryId, rowtype: [], rowset: [], parameters: [] },
          code: null,
          message: null,
          success: true,
        });
      return reply(res, {
        data: {
          ...result,
          parameters: [],
          total: result.rowset.length,
          returned: result.rowset.length,
          queryId,
          queryResultFormat: 'json',
          finalDatabaseName: session.database ?? null,
          finalSchemaName: session.schema ?? null,
          finalWarehouseName: session.warehouse ?? null,
          statementTypeId: 0,
          version: 1,
          sendResultTime: Date.now(),
        },
        code: null,
        message: null,
        success: true,
      });
    } catch (error) {
      if (!(error instanceof SqlError)) throw error;
      return reply(res, {
        data: { errorCode: error.code, sqlState: error.sqlState, queryId, internalError: false },
        code: error.code,
        message: error.message,
        success: false,
        headers: null,
      });
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw).toString() : raw.toString();
      const body = text ? JSON.parse(text) : {};
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/session/v1/login-request') {
        if (state.failNextLogin.count > 0) {
          state.failNextLogin.count -= 1;
          return reply(res, { message: 'Service Unavailable' }, state.failNextLogin.status);
        }
        return login(body, res);
      }
      const token = /Snowflake Token="([^"]+)"/.exec(req.headers.authorization ?? '')?.[1];
      const session = token ? sessions.get(token) : undefined;
      if (!session)
        return reply(res, { data: null, code: '390104', message: 'Invalid session token.', success: false }, 401);
      if (url.pathname === '/queries/v1/query-request') return query(session, body, res);
      if (url.pathname === '/session' && url.searchParams.get('delete') === 'true') sessions.delete(token!);
      return reply(res, { data: null, code: null, message: null, success: true });
    });
  });
  const ready = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  return {
    state,
    ready,
    /** The rows of a table in `database.schema.name` form, or undefined when there is none. */
    rows: (key: string) => state.tables.get(key)?.rows,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          fs.rmSync(root, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
