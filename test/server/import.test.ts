import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventStore } from '../../server/analytics/store/event-store.ts';
import { importEvents } from '../../server/cli/import.ts';
import { openStore } from '../../server/store/store.ts';
import { makeTempDir } from './helpers.ts';
import { exited, runCli, startServer } from './processes.ts';

const dir = makeTempDir('ref-import-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const line = (i: number) =>
  JSON.stringify({
    event: i % 2 ? 'b' : 'a',
    distinct_id: `imp-${i % 7}`,
    timestamp: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    properties: { i },
  });

describe('bulk import', () => {
  it('streams a file in batches; bad lines are skipped and named', async () => {
    const events = createEventStore(':memory:');
    const lines = Array.from({ length: 2500 }, (_, i) => line(i));
    lines.splice(10, 0, '{not json');
    lines.splice(20, 0, JSON.stringify({ distinct_id: 'x' }));
    lines.splice(30, 0, '');
    const result = await importEvents(events, 1, Readable.from(lines.join('\n')), { batchSize: 700 });
    expect(result).toMatchObject({ imported: 2500, skipped: 2 });
    expect(result.bad.map((b) => b.line)).toEqual([11, 21]);
    expect(result.bad[1]!.reason).toContain('event');
    const [row] = await events.all<{ n: number; persons: number; first: Date }>(
      'SELECT count(*)::INTEGER AS n, (SELECT count(*)::INTEGER FROM persons) AS persons, min(timestamp) AS first FROM events',
    );
    expect(row).toEqual({ n: 2500, persons: 7, first: new Date(Date.UTC(2024, 0, 1)) });
    await events.close();
  });

  it('npm run import: the CLI imports into the data dir and prints the summary; a restart keeps the events', async () => {
    const file = path.join(dir, 'events.jsonl');
    fs.writeFileSync(file, [line(1), 'oops', line(2), line(3), '{"event": "x"}'].join('\n'));
    expect(runCli(['seed', '--data-dir', dir]).status).toBe(0);
    const r = runCli(['import', file, '--project', '1', '--data-dir', dir]);
    expect(r.stderr).toContain('line 2: invalid JSON');
    expect(r.stdout.trim()).toBe('imported 3 events into project 1 (Hedgebox Web), skipped 2 bad lines: 2, 5');
    expect(r.status).toBe(0);
    expect(runCli(['import', file, '--project', '99', '--data-dir', dir]).stderr).toContain("no project with id '99'");

    // The server sees them, takes more through /batch/, and keeps all of it across a SIGKILL.
    const first = await startServer(['--data-dir', dir]);
    const unknown = await fetch(`${first.base}/batch/`, {
      method: 'POST',
      body: JSON.stringify({ api_key: 'phc_unknown', batch: [{ event: 'x', distinct_id: 'y' }] }),
    });
    expect(unknown.status).toBe(401);
    const sqlite = openStore(path.join(dir, 'store.sqlite'));
    const apiToken = sqlite.projects.get(1)!.api_token;
    sqlite.close();
    const sent = await fetch(`${first.base}/batch/`, {
      method: 'POST',
      body: JSON.stringify({ api_key: apiToken, batch: [{ event: 'live', distinct_id: 'imp-1' }] }),
    });
    expect(sent.status).toBe(200);
    first.proc.kill('SIGKILL');
    await exited(first.proc);
    const second = await startServer(['--data-dir', dir]);
    second.proc.kill('SIGTERM');
    expect(await exited(second.proc)).toBe(0);

    const events = createEventStore(path.join(dir, 'events.duckdb'));
    const rows = await events.all<{ event: string; n: number }>(
      'SELECT event, count(*)::INTEGER AS n FROM events GROUP BY event ORDER BY event',
    );
    expect(rows).toEqual([
      { event: 'a', n: 1 },
      { event: 'b', n: 2 },
      { event: 'live', n: 1 },
    ]);
    await events.close();
  });
});
