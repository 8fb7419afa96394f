import type { PluginGroup, PluginType } from '../../src/contract/index.ts';
import type { Db } from './db.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';

/**
 * Pipeline plugins (one table for the three groups: `grp`). JSON columns hold validated input
 * or what the server computed (config_schema, capabilities, compiled code): the serializers parse them.
 */
export interface PluginRow {
  id: number;
  organization_id: string;
  grp: PluginGroup;
  plugin_type: PluginType;
  name: string;
  description: string | null;
  url: string | null;
  icon: string | null;
  tag: string | null;
  latest_tag: string | null;
  is_global: number;
  config_schema: string;
  capabilities: string;
  public_jobs: string;
  metrics: string;
  source: string;
  compiled: string;
  builtin: string | null;
  created_at: string;
  updated_at: string;
}

/** A plugin row with its organization's name and delivery totals over its configs. */
export interface PluginViewRow extends PluginRow {
  organization_name: string;
  delivered: number;
  failed: number;
}

export type NewPlugin = Omit<PluginRow, 'id' | 'created_at' | 'updated_at'>;

const VIEW = `SELECT p.*, o.name AS organization_name,
    COALESCE((SELECT SUM(m.delivered) FROM plugin_metrics m JOIN plugin_configs c ON c.id = m.plugin_config_id WHERE c.plugin_id = p.id), 0) AS delivered,
    COALESCE((SELECT SUM(m.failed) FROM plugin_metrics m JOIN plugin_configs c ON c.id = m.plugin_config_id WHERE c.plugin_id = p.id), 0) AS failed
  FROM plugins p JOIN organizations o ON o.id = p.organization_id`;

export function createPluginsRepository(db: Db) {
  const insert =
    db.prepare(`INSERT INTO plugins (organization_id, grp, plugin_type, name, description, url, icon, tag, latest_tag,
      is_global, config_schema, capabilities, public_jobs, metrics, source, compiled, builtin, created_at, updated_at)
    VALUES (@organization_id, @grp, @plugin_type, @name, @description, @url, @icon, @tag, @latest_tag, @is_global, @config_schema,
      @capabilities, @public_jobs, @metrics, @source, @compiled, @builtin, @at, @at)`);
  const update =
    db.prepare(`UPDATE plugins SET plugin_type = @plugin_type, name = @name, description = @description, url = @url,
      icon = @icon, tag = @tag, latest_tag = @latest_tag, is_global = @is_global, config_schema = @config_schema,
      capabilities = @capabilities, public_jobs = @public_jobs, metrics = @metrics, source = @source, compiled = @compiled,
      builtin = @builtin, updated_at = @updated_at WHERE id = @id`);
  const get = db.prepare<[number], PluginRow>('SELECT * FROM plugins WHERE id = ?');
  const view = db.prepare<[number], PluginViewRow>(`${VIEW} WHERE p.id = ?`);
  const list = db.prepare<Record<string, unknown>, PluginViewRow>(
    `${VIEW} WHERE p.organization_id = @org AND p.grp = @grp ORDER BY p.id ${LIMIT_OFFSET}`,
  );
  const count = db
    .prepare<[string, string], number>('SELECT COUNT(*) FROM plugins WHERE organization_id = ? AND grp = ?')
    .pluck();
  const remove = db.prepare<[number]>('DELETE FROM plugins WHERE id = ?');
  const unused = db
    .prepare<[string, string], number>(
      `SELECT p.id FROM plugins p WHERE p.organization_id = ? AND p.grp = ?
    AND NOT EXISTS (SELECT 1 FROM plugin_configs c WHERE c.plugin_id = p.id AND c.enabled = 1) ORDER BY p.id`,
    )
    .pluck();

  return {
    create(row: NewPlugin, at: string): number {
      return Number(insert.run({ ...row, at }).lastInsertRowid);
    },
    get: (id: number): PluginRow | undefined => get.get(id),
    view: (id: number): PluginViewRow | undefined => view.get(id),
    list: (organizationId: string, group: PluginGroup, limit: number, offset: number): PluginViewRow[] =>
      list.all({ org: organizationId, grp: group, limit, offset }),
    count: (organizationId: string, group: PluginGroup): number => count.get(organizationId, group) ?? 0,
    update(row: PluginRow): void {
      update.run(row);
    },
    delete(id: number): void {
      remove.run(id);
    },
    /** Ids of the group's plugins enabled in no project. */
    unused: (organizationId: string, group: PluginGroup): number[] => unused.all(organizationId, group),
  };
}
export type PluginsRepository = ReturnType<typeof createPluginsRepository>;
