/**
 * Version 7: pipeline plugins of the three groups, their per-project configs, log
 * entries and hourly delivery counters.
 */
export const pluginsMigration: { version: number; name: string; sql: string } = {
  version: 7,
  name: 'pipeline plugins, plugin configs, plugin logs and delivery metrics',
  sql: `
    -- grp: pipeline_destinations | pipeline_frontend_apps | pipeline_import_apps.
    -- source: JSON map file name -> text; compiled: JSON {index, site} (JavaScript made on save);
    -- builtin: the server's own implementation of a catalogue plugin (webhook, slack, ...), or NULL.
    CREATE TABLE plugins (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      grp TEXT NOT NULL,
      plugin_type TEXT NOT NULL,
      name TEXT NOT NULL,
      description TEXT,
      url TEXT,
      icon TEXT,
      tag TEXT,
      latest_tag TEXT,
      is_global INTEGER NOT NULL DEFAULT 0,
      config_schema TEXT NOT NULL DEFAULT '[]',
      capabilities TEXT NOT NULL DEFAULT '{}',
      public_jobs TEXT NOT NULL DEFAULT '{}',
      metrics TEXT NOT NULL DEFAULT '{}',
      source TEXT NOT NULL DEFAULT '{}',
      compiled TEXT NOT NULL DEFAULT '{}',
      builtin TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX plugins_organization ON plugins (organization_id, grp, id);
    -- config: JSON of the non-secret values; secrets: the secret values' JSON, sealed (secret-box).
    CREATE TABLE plugin_configs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      team_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      plugin_id INTEGER NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
      enabled INTEGER NOT NULL DEFAULT 0,
      "order" INTEGER NOT NULL DEFAULT 0,
      config TEXT NOT NULL DEFAULT '{}',
      secrets TEXT,
      error TEXT,
      last_job TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (team_id, plugin_id)
    );
    CREATE INDEX plugin_configs_plugin ON plugin_configs (plugin_id);
    CREATE TABLE plugin_logs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      plugin_config_id INTEGER NOT NULL REFERENCES plugin_configs (id) ON DELETE CASCADE,
      timestamp TEXT NOT NULL,
      level TEXT NOT NULL,
      source TEXT NOT NULL,
      message TEXT NOT NULL
    );
    CREATE INDEX plugin_logs_config ON plugin_logs (plugin_config_id, id);
    CREATE TABLE plugin_metrics (
      plugin_config_id INTEGER NOT NULL REFERENCES plugin_configs (id) ON DELETE CASCADE,
      hour TEXT NOT NULL,
      delivered INTEGER NOT NULL DEFAULT 0,
      failed INTEGER NOT NULL DEFAULT 0,
      retried INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (plugin_config_id, hour)
    );
  `,
};

/**
 * Version 8: a plugin's activity entries carry its group (`detail.type`), so each group's
 * `activity/` lists its own plugins only; entries written before are given the group of their
 * plugin (those of plugins deleted since cannot be, and stay out of every group's list).
 */
export const pluginActivityGroupMigration: { version: number; name: string; sql: string } = {
  version: 8,
  name: 'plugin activity entries carry their group',
  sql: `
    UPDATE activity_log SET detail = json_set(detail, '$.type', (SELECT p.grp FROM plugins p WHERE CAST(p.id AS TEXT) = activity_log.item_id))
    WHERE scope = 'Plugin' AND json_type(detail) = 'object' AND json_extract(detail, '$.type') IS NULL
      AND EXISTS (SELECT 1 FROM plugins p WHERE CAST(p.id AS TEXT) = activity_log.item_id);
  `,
};
