import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startPgCluster } from '../../../scripts/pg-cluster.mjs';

/** Whether something accepts a TCP connection on the loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100)))
    if (await done()) return true;
  return done();
}

// The test server of the Postgres destination tests (scripts/pg-cluster.mjs) must never outlive them.
describe('the test PostgreSQL cluster', () => {
  it('stop() shuts the server down and removes its folder', async () => {
    const cluster = await startPgCluster();
    expect(await listening(cluster.port)).toBe(true);
    await cluster.stop();
    expect(existsSync(cluster.socketDir)).toBe(false);
    expect(await listening(cluster.port)).toBe(false);
  }, 60_000);

  it('a caller killed with SIGKILL leaves no server and no folder behind', async () => {
    const script = `import { startPgCluster } from ${JSON.stringify(new URL('../../../scripts/pg-cluster.mjs', import.meta.url).href)};
      const c = await startPgCluster();
      console.log(JSON.stringify({ port: c.port, dir: c.socketDir }));
      setInterval(() => {}, 1000);`;
    const caller = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      caller.stdout.once('data', (data: Buffer) => resolve(String(data)));
      caller.once('exit', (code) => reject(new Error(`the caller exited (${code}) before the cluster started`)));
    });
    const { port, dir } = JSON.parse(line) as { port: number; dir: string };
    expect(await listening(port)).toBe(true);
    caller.kill('SIGKILL');
    expect(await until(async () => !existsSync(dir) && !(await listening(port)), 15_000)).toBe(true);
  }, 60_000);
});
