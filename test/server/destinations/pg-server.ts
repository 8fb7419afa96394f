import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';

/**
 * A Postgres server for destination tests: PGlite behind its socket server on a free loopback port,
 * fronted by a small gate that does what PGlite over a socket does not (it takes any user, any
 * password and any database name): it checks the database name (3D000) and a cleartext password
 * (28P01) the way a real server answers them, then hands the session to PGlite. The gate can also
 * cut a session mid-transaction, as a dropped network connection would.
 */
export interface PgServer {
  /** The gate's port: what a destination config points at. */
  port: number;
  /** A client logged in to the database (for reading back what a run wrote). */
  query<T extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The next session is reset once the client has sent `bytes` bytes after logging in. */
  cutNextSessionAfter(bytes: number): void;
  /** How many sessions logged in so far. */
  sessions(): number;
  close(): Promise<void>;
}

export interface PgServerOptions {
  database: string;
  users: Record<string, string>;
  /**
   * Users whose sessions run as a role without the superuser's rights (user → role, created
   * NOLOGIN here): PGlite has one superuser session, so the gate sets the role when such a user
   * logs in and resets it when they leave.
   */
  roles?: Record<string, string>;
}

const SSL_REQUEST = 80877103;

/** A backend ErrorResponse, as a real server sends for a failed login. */
function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([
    ...([['S', 'FATAL'], ['V', 'FATAL'], ['C', code], ['M', message]] as const).map(([k, v]) => Buffer.from(`${k}${v}\0`)),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/** The key/value pairs of a StartupMessage (after its length and protocol version). */
function startupParams(message: Buffer): Record<string, string> {
  const parts = message.subarray(8).toString('utf8').split('\0');
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i]; i += 2) out[parts[i]!] = parts[i + 1]!;
  return out;
}

/** A simple-protocol Query message. */
function simpleQuery(sql: string): Buffer {
  const body = Buffer.from(`${sql}\0`);
  const head = Buffer.alloc(5);
  head.write('Q', 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** Reads a server's messages until ReadyForQuery ('Z'), resolving to the bytes read up to it. */
function messages(socket: net.Socket) {
  let buffer = Buffer.alloc(0);
  let waiting: ((bytes: Buffer) => void) | null = null;
  const check = () => {
    for (let at = 0; at + 5 <= buffer.length;) {
      const end = at + 1 + buffer.readInt32BE(at + 1);
      if (end > buffer.length) return;
      if (buffer[at] === 0x5a && waiting) {
        const done = waiting;
        waiting = null;
        const head = buffer.subarray(0, end);
        buffer = buffer.subarray(end);
        done(head);
        return;
      }
      at = end;
    }
  };
  const onData = (data: Buffer) => {
    buffer = Buffer.concat([buffer, data]);
    check();
  };
  socket.on('data', onData);
  return {
    untilReady: () => new Promise<Buffer>((resolve, reject) => {
      waiting = resolve;
      socket.once('close', () => reject(new Error('closed before ready')));
      check();
    }),
    stop: () => socket.removeListener('data', onData),
  };
}

export async function startPgServer(options: PgServerOptions): Promise<PgServer> {
  const db = await PGlite.create();
  for (const role of new Set(Object.values(options.roles ?? {}))) await db.exec(`CREATE ROLE ${role} NOLOGIN`);
  const inner = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 8 });
  await inner.start();
  const innerPort = Number(inner.getServerConn().split(':').pop());
  let cutAfter: number | null = null;
  let sessions = 0;
  // A restricted session's role is undone before the next session starts.
  let resetting: Promise<void> = Promise.resolve();
  const open = new Set<net.Socket>();

  const gate = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let startup: Buffer | null = null;
    let user = '';
    const onData = (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        if (!startup) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (length === 8 && buffer.readInt32BE(4) === SSL_REQUEST) {
            client.write('N'); // no TLS here
            buffer = buffer.subarray(8);
            continue;
          }
          if (buffer.length < length) return;
          startup = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          const params = startupParams(startup);
          user = params.user ?? '';
          if ((params.database ?? user) !== options.database) {
            client.end(errorResponse('3D000', `database "${params.database ?? user}" does not exist`));
            return;
          }
          const ask = Buffer.alloc(9);
          ask.write('R', 0);
          ask.writeInt32BE(8, 1);
          ask.writeInt32BE(3, 5); // AuthenticationCleartextPassword
          client.write(ask);
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const password = buffer.subarray(5, length).toString('utf8').replace(/\0$/, '');
        const rest = buffer.subarray(length + 1);
        client.removeListener('data', onData);
        if (options.users[user] !== password) {
          client.end(errorResponse('28P01', `password authentication failed for user "${user}"`));
          return;
        }
        hand(client, startup, rest, options.roles?.[user]).catch(() => client.destroy());
        return;
      }
    };
    client.on('data', onData);
  });

  /** Logged in: PGlite gets the original startup message and the session from here on. */
  async function hand(client: net.Socket, startup: Buffer, rest: Buffer, role: string | undefined) {
    sessions += 1;
    const limit = cutAfter;
    cutAfter = null;
    await resetting;
    const upstream = net.connect(innerPort, '127.0.0.1');
    open.add(upstream);
    upstream.on('error', () => client.destroy());
    const replies = messages(upstream);
    upstream.write(startup);
    // The server's answers to the login (authentication, parameters, ready) go to the client after the role is set.
    const greeting = await replies.untilReady();
    if (role) {
      upstream.write(simpleQuery(`SET ROLE ${role}`));
      await replies.untilReady();
    }
    replies.stop();
    client.write(greeting);
    upstream.on('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    client.on('close', () => {
      if (!role || upstream.destroyed) return void upstream.destroy();
      // The role would outlive the session in PGlite's single backend: undo it before leaving.
      const again = messages(upstream);
      upstream.write(simpleQuery(`ROLLBACK; RESET ROLE`));
      resetting = again.untilReady().then(() => undefined, () => undefined).finally(() => upstream.destroy());
    });
    let sent = 0;
    const forward = (data: Buffer) => {
      sent += data.length;
      if (limit !== null && sent > limit) {
        client.resetAndDestroy();
        upstream.destroy();
        return;
      }
      upstream.write(data);
    };
    if (rest.length > 0) forward(rest);
    client.on('data', forward);
    upstream.on('data', (data: Buffer) => {
      if (!client.destroyed) client.write(data);
    });
  }

  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  const port = (gate.address() as net.AddressInfo).port;
  const reader = new pg.Client({ host: '127.0.0.1', port: innerPort, user: 'postgres', database: 'postgres' });
  await reader.connect();

  return {
    port,
    async query(sql, params) {
      return (await reader.query(sql, params)).rows;
    },
    cutNextSessionAfter(bytes) {
      cutAfter = bytes;
    },
    sessions: () => sessions,
    async close() {
      await reader.end().catch(() => undefined);
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => gate.close(resolve));
      await inner.stop();
      await db.close();
    },
  };
}
