import net from 'node:net';
import pg from 'pg';
import { startPgCluster } from '../../../scripts/pg-cluster.mjs';

/**
 * A real PostgreSQL server for destination tests (scripts/pg-cluster.mjs: SCRAM passwords, TLS with
 * a self-signed certificate), reached through a small TCP proxy on another loopback port that can
 * cut a session mid-transaction, as a dropped network connection would, and counts sessions.
 */
export interface PgServer {
  /** The proxy's port: what a destination config points at. */
  port: number;
  /** A port that declines TLS before passing the session on, as a server without TLS answers. */
  plainPort: number;
  /** A session of the database's owner (for setting up tables and reading back what a run wrote). */
  query<T extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The next session through the proxy is reset once the client has sent `bytes` bytes. */
  cutNextSessionAfter(bytes: number): void;
  /** How many sessions reached the server through the proxy so far. */
  sessions(): number;
  /** The server's log so far: each session's connection, its TLS and its authentication method among it. */
  log(): string;
  close(): Promise<void>;
}

export interface PgServerOptions {
  database: string;
  /** The database's owner, who may create tables in its public schema: [user, password]. */
  owner: [string, string];
  /** Other login users (user → password): they may connect, but not create tables. */
  users?: Record<string, string>;
}

const SSL_REQUEST = 80877103;

export async function startPgServer(options: PgServerOptions): Promise<PgServer> {
  const cluster = await startPgCluster({ settings: { log_connections: 'on' } });
  const open = new Set<net.Socket>();
  const servers: net.Server[] = [];
  let cutAfter: number | null = null;
  let sessions = 0;
  try {
    const admin = new pg.Client({
      host: cluster.socketDir,
      port: cluster.port,
      user: cluster.user,
      database: 'postgres',
    });
    await admin.connect();
    try {
      const [owner, ownerPassword] = options.owner;
      for (const [user, password] of Object.entries({ [owner]: ownerPassword, ...options.users })) {
        await admin.query(`CREATE ROLE ${pg.escapeIdentifier(user)} LOGIN PASSWORD ${pg.escapeLiteral(password)}`);
      }
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(options.database)} OWNER ${pg.escapeIdentifier(owner)}`);
    } finally {
      await admin.end();
    }

    /** Passes a session to the server; with `declineTls`, answers an SSLRequest with N itself first. */
    const proxy = (declineTls: boolean) =>
      net.createServer((client) => {
        sessions += 1;
        const limit = cutAfter;
        cutAfter = null;
        const upstream = net.connect(cluster.port, cluster.host);
        for (const socket of [client, upstream]) {
          open.add(socket);
          socket.on('close', () => open.delete(socket));
          socket.on('error', () => undefined);
        }
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        let sent = 0;
        let first = true;
        client.on('data', (data: Buffer) => {
          if (
            first &&
            declineTls &&
            data.length >= 8 &&
            data.readInt32BE(0) === 8 &&
            data.readInt32BE(4) === SSL_REQUEST
          ) {
            first = false;
            client.write('N');
            data = data.subarray(8);
            if (data.length === 0) return;
          }
          first = false;
          sent += data.length;
          if (limit !== null && sent > limit) {
            client.resetAndDestroy();
            upstream.destroy();
            return;
          }
          upstream.write(data);
        });
        upstream.on('data', (data: Buffer) => {
          if (!client.destroyed) client.write(data);
        });
      });
    const listen = async (server: net.Server) => {
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as net.AddressInfo).port;
    };
    const port = await listen(proxy(false));
    const plainPort = await listen(proxy(true));

    const reader = new pg.Client({
      host: cluster.socketDir,
      port: cluster.port,
      user: options.owner[0],
      database: options.database,
    });
    await reader.connect();
    return {
      port,
      plainPort,
      async query(sql, params) {
        return (await reader.query(sql, params)).rows;
      },
      cutNextSessionAfter(bytes) {
        cutAfter = bytes;
      },
      sessions: () => sessions,
      log: () => cluster.log(),
      async close() {
        await reader.end().catch(() => undefined);
        for (const socket of open) socket.destroy();
        await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
        await cluster.stop();
      },
    };
  } catch (error) {
    for (const server of servers) server.close();
    await cluster.stop();
    throw error;
  }
}
