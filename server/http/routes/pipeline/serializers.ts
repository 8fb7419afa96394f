import type { Plugin, PluginConfig, PluginGroup, PluginLogEntry } from '../../../../src/contract/index.ts';
import { schemaFields } from '../../../plugins/config-values.ts';
import type { MetricRow, PluginConfigRow, PluginLogRow } from '../../../store/plugin-configs.ts';
import type { PluginRow, PluginViewRow } from '../../../store/plugins.ts';

/** Stored plugin → the contract's Plugin. JSON columns hold what the server validated or computed. */
export function pluginResponse(row: PluginViewRow): Plugin {
  return {
    id: row.id,
    plugin_type: row.plugin_type,
    name: row.name,
    description: row.description,
    url: row.url,
    icon: row.icon,
    config_schema: schemaFields(row.config_schema),
    tag: row.tag,
    latest_tag: row.latest_tag,
    is_global: row.is_global === 1,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    capabilities: JSON.parse(row.capabilities) as unknown,
    metrics: { ...(JSON.parse(row.metrics) as object), delivered: row.delivered, failed: row.failed },
    public_jobs: JSON.parse(row.public_jobs) as unknown,
    group: row.grp,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const HOUR = 3_600_000;

/** The last 24 hours by hour, zero-filled, oldest first. */
function hours(rows: MetricRow[], now: Date) {
  const end = Math.floor(now.getTime() / HOUR) * HOUR;
  const byHour = new Map(rows.map((r) => [r.hour, r]));
  return Array.from({ length: 24 }, (_, i) => {
    const hour = new Date(end - (23 - i) * HOUR).toISOString();
    const r = byHour.get(hour);
    return { hour, delivered: r?.delivered ?? 0, failed: r?.failed ?? 0 };
  });
}

export interface ConfigExtras {
  plugin: PluginRow | undefined;
  totals: { delivered: number; failed: number; retried: number };
  metricRows: MetricRow[];
  now: Date;
  /** `/site_app/<id>/<token>/<hash>/` for a frontend app. */
  siteAppUrl: string | null;
}

export function pluginConfigResponse(row: PluginConfigRow, x: ConfigExtras): PluginConfig {
  return {
    id: row.id,
    plugin: row.plugin_id,
    plugin_info: x.plugin
      ? {
          id: x.plugin.id,
          name: x.plugin.name,
          icon: x.plugin.icon,
          plugin_type: x.plugin.plugin_type,
          group: x.plugin.grp satisfies PluginGroup,
        }
      : null,
    team_id: row.team_id,
    enabled: row.enabled === 1,
    order: row.order,
    config: JSON.parse(row.config) as Record<string, unknown>,
    secret_keys_set: JSON.parse(row.secret_keys) as string[],
    error: row.error ? (JSON.parse(row.error) as { message: string; time: string }) : null,
    metrics: { ...x.totals, hours: hours(x.metricRows, x.now) },
    last_job: row.last_job ? (JSON.parse(row.last_job) as PluginConfig['last_job']) : null,
    site_app_url: x.siteAppUrl,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const pluginLogResponse = (row: PluginLogRow): PluginLogEntry => ({ ...row });
