import { expect } from 'vitest';
import { batchExportRunSchema, pageSchema, type DestinationType } from '../../../src/contract/index.ts';
import type { Scheduler } from '../../../server/batch-exports/scheduler.ts';
import type { TestServer } from '../helpers.ts';

/**
 * Exports the hour 05:00–06:00 of 2024-06-03 through the API, as an admin would: creates a paused
 * export of `type` (or reuses `id`), backfills that hour and lets the scheduler run it. Returns the
 * export's runs (newest first), the newest, and its logs as text.
 */
export async function exportHour(
  server: TestServer,
  scheduler: Scheduler,
  base: string,
  type: DestinationType,
  destination: Record<string, unknown>,
  model = 'events',
  id?: string,
) {
  if (!id) {
    const res = await server.request('POST', base, {
      json: { name: type, interval: 'hour', paused: true, model, destination: { type, config: destination } },
    });
    expect(res.status, res.text).toBe(201);
    id = res.body.id as string;
  }
  const backfill = await server.request('POST', `${base}${id}/backfill/`, {
    json: { start_at: '2024-06-03T05:00:00Z', end_at: '2024-06-03T06:00:00Z' },
  });
  expect(backfill.status, backfill.text).toBe(200);
  await scheduler.tick();
  const runs = pageSchema(batchExportRunSchema).parse((await server.get(`${base}${id}/runs/`)).body).results;
  const logs = (await server.get(`${base}${id}/logs/?limit=1000`)).text;
  return { id, runs, latest: runs[0]!, logs };
}
