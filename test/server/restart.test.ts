import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from './helpers.ts';
import { exited, startServer, type RunningServer } from './processes.ts';

const dir = makeTempDir('ref-restart-');
const running: RunningServer[] = [];
afterAll(() => {
  for (const s of running) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('keeps data written through HTTP across a SIGKILL and a restart on the same data dir', async () => {
    const first = await startServer(['--data-dir', dir]);
    running.push(first);
    const lines = first.stdout().trim().split('\n');
    expect(lines[0]).toMatch(/^listening on http:\/\/localhost:\d+$/);
    const key = /#key=(phx_\w+)/.exec(first.stdout())![1]!;
    expect(lines[1]).toBe(`sign in: ${first.origin}/#key=${key}`);
    expect(fs.statSync(`${dir}/demo-key`).mode & 0o777).toBe(0o600);

    const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${first.base}/api/organizations/`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Survives Crashes' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    first.proc.kill('SIGKILL');
    await exited(first.proc);

    const second = await startServer(['--data-dir', dir]);
    running.push(second);
    expect(second.stdout()).toContain(`#key=${key}`);
    const res = await fetch(`${second.base}/api/organizations/${id}/`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, name: 'Survives Crashes', membership_level: 15 });
    const list = (await (await fetch(`${second.base}/api/organizations/`, { headers: auth })).json()) as {
      count: number;
    };
    expect(list.count).toBe(3);

    second.proc.kill('SIGTERM');
    expect(await exited(second.proc)).toBe(0);
  });
});
