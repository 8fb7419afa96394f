// A throwaway PostgreSQL cluster for tests and benchmarks: Debian's server binaries, a fresh
// `initdb` in a temporary folder, one `postgres` on a free loopback port with its unix socket in
// that folder. It checks passwords with SCRAM-SHA-256 on TCP (the local socket trusts, for the
// caller's own set-up), speaks TLS with a self-signed certificate made here, and keeps nothing:
// fsync and synchronous commit are off, and the folder is removed when the cluster stops.
//
// Postgres refuses to run as root, so as root (as in CI) initdb and postgres run as the `postgres`
// system user that Debian's package creates; otherwise as the calling user.
//
// It stops when `stop()` is called and also when the calling process dies in any way: a watchdog
// shell holds a pipe from the caller and, once it reads end-of-file (the caller closed it, exited,
// or was killed), shuts the server down and removes the folder. The server also gets SIGINT when
// its parent dies (`setpriv --pdeathsig`), should the watchdog be killed with it.
import { execFileSync, spawn } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DEBIAN_BINARIES = '/usr/lib/postgresql';
const READY_TIMEOUT_MS = 30_000;

/** The folder holding initdb and postgres: `PG_BIN`, else the newest of Debian's `/usr/lib/postgresql/<version>/bin`. */
export function postgresBinDir() {
  if (process.env.PG_BIN) {
    if (!existsSync(join(process.env.PG_BIN, 'initdb')))
      throw new Error(`PG_BIN is ${process.env.PG_BIN}, which holds no initdb.`);
    return process.env.PG_BIN;
  }
  const versions = existsSync(DEBIAN_BINARIES)
    ? readdirSync(DEBIAN_BINARIES)
        .filter((v) => existsSync(join(DEBIAN_BINARIES, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      `PostgreSQL's server is not installed (no ${DEBIAN_BINARIES}/*/bin/initdb). Install Debian's package ` +
        '(apt-get update && apt-get install -y postgresql; .ci/run does this when run as root), or set PG_BIN to a folder holding initdb and postgres.',
    );
  }
  return join(DEBIAN_BINARIES, versions[0], 'bin');
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** uid and gid of the `postgres` system user. */
function postgresUser() {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line)
    throw new Error(
      "Running as root, but there is no `postgres` system user to run the server as (Debian's postgresql package creates it).",
    );
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** The command that runs `command args` as the server's user, with `signal` sent to it when its parent dies. */
function asServerUser(command, args, signal) {
  const privileges = isRoot() ? ['--reuid=postgres', '--regid=postgres', '--init-groups'] : [];
  return ['setpriv', [...privileges, ...(signal ? ['--pdeathsig', signal] : []), '--', command, ...args]];
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Reads the server's pid, a line each time one is started, until end-of-file; then stops the last
// one (fast shutdown, SIGKILL after 5 s) and removes the folder.
const WATCHDOG = `
trap '' INT TERM HUP
pid=
while read -r line; do pid=$line; done
if [ -n "$pid" ]; then
  kill -INT "$pid" 2>/dev/null
  waited=0
  # Gone, or a zombie its dead parent left for init to reap.
  while kill -0 "$pid" 2>/dev/null && [ "$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -c1)" != Z ]; do
    waited=$((waited + 1))
    [ "$waited" -eq 100 ] && kill -KILL "$pid" 2>/dev/null
    sleep 0.05
  done
fi
rm -rf "$1"
`;

const SETTINGS = {
  listen_addresses: '127.0.0.1',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  ssl: 'on',
  password_encryption: 'scram-sha-256',
  max_connections: '40',
  log_min_messages: 'warning',
};

/**
 * Starts a cluster. `settings` are extra server settings (`-c name=value`). Resolves once the
 * server accepts connections, with how to reach it:
 * `{host, port, socketDir, user, password, certFile, pid, log(), stop()}` (`user` is the
 * superuser, whose `password` works over TCP; on the socket it needs none).
 */
export async function startPgCluster({ settings = {} } = {}) {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'pg-cluster-'));
  const watchdog = spawn('sh', ['-c', WATCHDOG, 'pg-cluster-watchdog', dir], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.unref();
  watchdog.stdin.unref?.();
  const stopped = new Promise((resolve) => watchdog.once('exit', resolve));
  const stop = async () => {
    watchdog.ref(); // the caller waits for the clean-up, whatever else keeps it alive
    watchdog.stdin.end();
    await stopped;
  };
  const owner = isRoot() ? postgresUser() : null;
  const give = (path) => owner && chownSync(path, owner.uid, owner.gid);
  try {
    give(dir);
    const data = join(dir, 'data');
    const password = `pg-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    writeFileSync(join(dir, 'password'), password, { mode: 0o600 });
    give(join(dir, 'password'));
    const [initdb, initArgs] = asServerUser(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      `--pwfile=${join(dir, 'password')}`,
      '-E',
      'UTF8',
      '--locale=C',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '--no-sync',
      '--no-instructions',
    ]);
    execFileSync(initdb, initArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    // Every TCP connection, with TLS or without, logs in with SCRAM; the local socket is the set-up's.
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n');
    const certFile = join(dir, 'server.crt');
    const keyFile = join(dir, 'server.key');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    give(certFile);
    give(keyFile); // the server refuses a key file others may read; openssl writes it 0600
    const options = { ...SETTINGS, ssl_cert_file: certFile, ssl_key_file: keyFile, ...settings };
    const args = ['-D', data, '-k', dir, ...Object.entries(options).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      const logFile = join(dir, `postgres-${port}.log`);
      const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
      const pid = await launch(bin, args, port, logFile, (line) => watchdog.stdin.write(`${line}\n`));
      if (pid === null) {
        // Another process took the port between the probe and the server's bind: take another.
        if (attempt < 5 && /could not bind|Address already in use/.test(log())) continue;
        throw new Error(`postgres did not start:\n${log()}`);
      }
      return { host: '127.0.0.1', port, socketDir: dir, user: 'postgres', password, certFile, pid, log, stop };
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Starts the server and waits until it accepts connections: its pid, or null when it exited first. */
async function launch(bin, args, port, logFile, tell) {
  const out = openSync(logFile, 'a');
  const [command, commandArgs] = asServerUser(join(bin, 'postgres'), [...args, '-p', String(port)], 'INT');
  const server = spawn(command, commandArgs, { stdio: ['ignore', out, out], detached: true });
  closeSync(out);
  server.unref();
  tell(server.pid);
  let exited = false;
  server.once('exit', () => {
    exited = true;
  });
  const pidFile = join(args[1], 'postmaster.pid');
  const started = Date.now();
  for (;;) {
    // The pid file's eighth line is the server's state: `ready` once it accepts connections.
    const state = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n')[7]?.trim() : '';
    if (state === 'ready') return server.pid;
    if (exited) return null;
    if (Date.now() - started > READY_TIMEOUT_MS)
      throw new Error(`postgres was not ready within ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
