export interface PgCluster {
  /** Always `127.0.0.1`. */
  host: string;
  port: number;
  /** The folder holding the unix socket (and everything else of the cluster): a `host` for `pg`. */
  socketDir: string;
  /** The superuser, `postgres`. */
  user: string;
  /** The superuser's password (SCRAM over TCP; the socket needs none). */
  password: string;
  /** The server's self-signed certificate (PEM). */
  certFile: string;
  pid: number;
  /** The server's log so far. */
  log(): string;
  /** Shuts the server down and removes its folder. */
  stop(): Promise<void>;
}
export function postgresBinDir(): string;
export function startPgCluster(options?: { settings?: Record<string, string> }): Promise<PgCluster>;
