import type { Db } from './db.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import type { SecretBox } from './secret-box.ts';

/**
 * A plugin enabled (or not) in a project, with its config values. Secret values are stored
 * sealed (secret-box) apart from the others and only `secretsOf` reads them back (for running).
 */
export interface PluginConfigRow {
  id: number;
  team_id: number;
  plugin_id: number;
  enabled: number;
  order: number;
  /** JSON of the non-secret values. */
  config: string;
  error: string | null;
  last_job: string | null;
  created_at: string;
  updated_at: string;
  /** Keys of the secret values set (JSON list; computed, never the values). */
  secret_keys: string;
}

export interface PluginConfigWrite {
  enabled: boolean;
  order: number;
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
}

export interface PluginLogRow {
  id: number;
  timestamp: string;
  level: 'DEBUG' | 'LOG' | 'INFO' | 'WARN' | 'ERROR';
  source: string;
  message: string;
}

export interface MetricRow {
  hour: string;
  delivered: number;
  failed: number;
  retried: number;
}

export const MAX_LOG_MESSAGE = 2000;
/** Log entries kept per config: older ones are dropped as new ones come. */
export const MAX_LOG_ENTRIES = 2000;

export function createPluginConfigsRepository(db: Db, box: SecretBox) {
  const cols = `c.id, c.team_id, c.plugin_id, c.enabled, c."order", c.config, c.error, c.last_job, c.created_at, c.updated_at, c.secrets`;
  type Raw = Omit<PluginConfigRow, 'secret_keys'> & { secrets: string | null };
  const get = db.prepare<[number], Raw>(`SELECT ${cols} FROM plugin_configs c WHERE c.id = ?`);
  const byPlugin = db.prepare<[number, number], Raw>(
    `SELECT ${cols} FROM plugin_configs c WHERE c.team_id = ? AND c.plugin_id = ?`,
  );
  const list = db.prepare<Record<string, unknown>, Raw>(`SELECT ${cols} FROM plugin_configs c
    WHERE c.team_id = @team AND (@plugin IS NULL OR c.plugin_id = @plugin) ORDER BY c."order", c.id ${LIMIT_OFFSET}`);
  const count = db
    .prepare<Record<string, unknown>, number>(
      `SELECT COUNT(*) FROM plugin_configs c
    WHERE c.team_id = @team AND (@plugin IS NULL OR c.plugin_id = @plugin)`,
    )
    .pluck();
  const forPlugin = db.prepare<[number], Raw>(
    `SELECT ${cols} FROM plugin_configs c WHERE c.plugin_id = ? ORDER BY c.id`,
  );
  const enabledAll = db.prepare<[], Raw>(
    `SELECT ${cols} FROM plugin_configs c WHERE c.enabled = 1 ORDER BY c.team_id, c."order", c.id`,
  );
  const insert =
    db.prepare(`INSERT INTO plugin_configs (team_id, plugin_id, enabled, "order", config, secrets, created_at, updated_at)
    VALUES (@team_id, @plugin_id, @enabled, @order, @config, @secrets, @at, @at)`);
  const update =
    db.prepare(`UPDATE plugin_configs SET enabled = @enabled, "order" = @order, config = @config, secrets = @secrets,
    updated_at = @at WHERE id = @id`);
  const setError = db.prepare('UPDATE plugin_configs SET error = ? WHERE id = ?');
  const setJob = db.prepare('UPDATE plugin_configs SET last_job = ? WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM plugin_configs WHERE id = ?');
  const addLog = db.prepare(
    'INSERT INTO plugin_logs (plugin_config_id, timestamp, level, source, message) VALUES (?, ?, ?, ?, ?)',
  );
  const trimLogs = db.prepare('DELETE FROM plugin_logs WHERE plugin_config_id = ? AND id <= ?');
  const logs = db.prepare<
    Record<string, unknown>,
    PluginLogRow
  >(`SELECT id, timestamp, level, source, message FROM plugin_logs
    WHERE plugin_config_id = @config ORDER BY id DESC ${LIMIT_OFFSET}`);
  const logCount = db.prepare<[number], number>('SELECT COUNT(*) FROM plugin_logs WHERE plugin_config_id = ?').pluck();
  const bump =
    db.prepare(`INSERT INTO plugin_metrics (plugin_config_id, hour, delivered, failed, retried) VALUES (@id, @hour, @d, @f, @r)
    ON CONFLICT (plugin_config_id, hour) DO UPDATE SET delivered = delivered + @d, failed = failed + @f, retried = retried + @r`);
  const metrics = db.prepare<[number, string], MetricRow>(`SELECT hour, delivered, failed, retried FROM plugin_metrics
    WHERE plugin_config_id = ? AND hour >= ? ORDER BY hour`);
  const totals = db.prepare<[number], { delivered: number | null; failed: number | null; retried: number | null }>(
    'SELECT SUM(delivered) AS delivered, SUM(failed) AS failed, SUM(retried) AS retried FROM plugin_metrics WHERE plugin_config_id = ?',
  );

  const secretValues = (sealed: string | null): Record<string, unknown> =>
    sealed ? (JSON.parse(box.open(sealed)) as Record<string, unknown>) : {};
  const row = (raw: Raw | undefined): PluginConfigRow | undefined => {
    if (!raw) return undefined;
    const { secrets, ...rest } = raw;
    return { ...rest, secret_keys: JSON.stringify(Object.keys(secretValues(secrets))) };
  };
  const seal = (secrets: Record<string, unknown>) =>
    Object.keys(secrets).length > 0 ? box.seal(JSON.stringify(secrets)) : null;
  let logsSinceTrim = 0;

  return {
    get: (id: number) => row(get.get(id)),
    forTeamAndPlugin: (teamId: number, pluginId: number) => row(byPlugin.get(teamId, pluginId)),
    list: (teamId: number, pluginId: number | null, limit: number, offset: number): PluginConfigRow[] =>
      list.all({ team: teamId, plugin: pluginId, limit, offset }).map((r) => row(r)!),
    count: (teamId: number, pluginId: number | null): number => count.get({ team: teamId, plugin: pluginId }) ?? 0,
    forPlugin: (pluginId: number): PluginConfigRow[] => forPlugin.all(pluginId).map((r) => row(r)!),
    /** Every enabled config, with its secret values (for the runtime only). */
    enabledWithSecrets: () => enabledAll.all().map((r) => ({ row: row(r)!, secrets: secretValues(r.secrets) })),
    /** The secret values of one config (for the runtime and for merging a PATCH). */
    secretsOf: (id: number): Record<string, unknown> => secretValues(get.get(id)?.secrets ?? null),
    create(teamId: number, pluginId: number, w: PluginConfigWrite, at: string): number {
      return Number(
        insert.run({
          team_id: teamId,
          plugin_id: pluginId,
          enabled: w.enabled ? 1 : 0,
          order: w.order,
          config: JSON.stringify(w.config),
          secrets: seal(w.secrets),
          at,
        }).lastInsertRowid,
      );
    },
    update(id: number, w: PluginConfigWrite, at: string): void {
      update.run({
        id,
        enabled: w.enabled ? 1 : 0,
        order: w.order,
        config: JSON.stringify(w.config),
        secrets: seal(w.secrets),
        at,
      });
    },
    setError: (id: number, error: { message: string; time: string } | null) =>
      setError.run(error ? JSON.stringify(error) : null, id),
    setJob: (id: number, job: unknown) => setJob.run(JSON.stringify(job), id),
    delete: (id: number) => remove.run(id),
    log(id: number, level: PluginLogRow['level'], source: string, message: string, at: string): void {
      const info = addLog.run(id, at, level, source, message.slice(0, MAX_LOG_MESSAGE));
      logsSinceTrim += 1;
      if (logsSinceTrim >= 200) {
        logsSinceTrim = 0;
        trimLogs.run(id, Number(info.lastInsertRowid) - MAX_LOG_ENTRIES);
      }
    },
    logs: (id: number, limit: number, offset: number): PluginLogRow[] => logs.all({ config: id, limit, offset }),
    logCount: (id: number): number => logCount.get(id) ?? 0,
    /** Adds to the counters of the hour holding `at`. */
    addMetrics(id: number, at: Date, delta: { delivered?: number; failed?: number; retried?: number }): void {
      const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000).toISOString();
      bump.run({ id, hour, d: delta.delivered ?? 0, f: delta.failed ?? 0, r: delta.retried ?? 0 });
    },
    metricsSince: (id: number, since: Date): MetricRow[] => metrics.all(id, since.toISOString()),
    totals(id: number) {
      const t = totals.get(id);
      return { delivered: t?.delivered ?? 0, failed: t?.failed ?? 0, retried: t?.retried ?? 0 };
    },
  };
}
export type PluginConfigsRepository = ReturnType<typeof createPluginConfigsRepository>;
