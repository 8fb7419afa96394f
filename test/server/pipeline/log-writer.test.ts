import { afterAll, describe, expect, it } from 'vitest';
import { createPluginLogWriter } from '../../../server/plugins/log-writer.ts';
import { createTestServer } from '../helpers.ts';

const server = createTestServer();
afterAll(() => server.close());

describe('the plugin log writer', () => {
  it("writes lines in batches, keeps at most the minute's share, and then says how many it dropped", () => {
    const configId = server.store.db
      .prepare('SELECT id FROM plugin_configs ORDER BY id LIMIT 1')
      .pluck()
      .get() as number;
    const before = server.store.pluginConfigs.logCount(configId);
    let clock = new Date('2026-01-01T10:00:00Z');
    const writer = createPluginLogWriter(server.store, () => clock, 50);
    for (let i = 0; i < 80; i++) writer.add(configId, 'LOG', 'plugin', `line ${i}`);
    // nothing written until the flush: one transaction for the lot
    expect(server.store.pluginConfigs.logCount(configId)).toBe(before);
    writer.flush();
    expect(server.store.pluginConfigs.logCount(configId)).toBe(before + 50);
    clock = new Date('2026-01-01T10:01:00Z');
    writer.add(configId, 'LOG', 'plugin', 'next minute');
    writer.flush();
    const newest = server.store.pluginConfigs.logs(configId, 2, 0).map((l) => l.message);
    expect(newest).toEqual([
      'next minute',
      '30 log lines were dropped: a destination writes at most 50 lines a minute to its log.',
    ]);
  });
});
