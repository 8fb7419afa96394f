import type { PluginGroup } from '../../src/contract/index.ts';
import { CATALOGUE } from '../plugins/catalogue.ts';
import { readConfigSchema } from '../plugins/config-schema.ts';
import { sourceTemplate } from '../plugins/templates.ts';
import type { Store } from '../store/store.ts';
import type { SeedClock } from './data.ts';

/**
 * Demo pipeline apps of the first organization: catalogue plugins in each group (the webhook, the
 * feedback widget and the JSON lines importer a version behind, so an update shows), a source destination, some enabled in the first
 * project with configs, hourly delivery counters over the last day and a few log lines. Written
 * without compiling (the seed is synchronous): code is compiled on first use (compiled-code.ts).
 */
interface SeedPlugin {
  url: string | null;
  name?: string;
  group?: PluginGroup;
  tag?: string;
  enabled?: Record<string, unknown>;
  /** Deliveries per hour over the last 24 hours, and failures among them. */
  traffic?: { perHour: number; failEvery: number };
}

const SEED_PLUGINS: readonly SeedPlugin[] = [
  {
    url: 'https://github.com/analytics-plugins/webhook-destination',
    tag: '1.1.0',
    enabled: { url: 'https://hooks.hedgebox.example/events', events: '' },
    traffic: { perHour: 120, failEvery: 7 },
  },
  { url: 'https://github.com/analytics-plugins/slack-destination' },
  {
    url: 'https://github.com/analytics-plugins/event-logger',
    enabled: { prefix: 'hedgebox' },
    traffic: { perHour: 40, failEvery: 0 },
  },
  { url: null, name: 'Signup forwarder', group: 'pipeline_destinations' },
  {
    url: 'https://github.com/analytics-plugins/notification-bar',
    enabled: { message: 'New: shared folders are here' },
  },
  { url: 'https://github.com/analytics-plugins/feedback-widget', tag: '0.8.0' },
  {
    url: 'https://github.com/analytics-plugins/csv-import',
    enabled: { url: 'https://files.hedgebox.example/events.csv', format: 'csv' },
  },
  { url: 'https://github.com/analytics-plugins/jsonl-import', tag: '0.9.0' },
];

const methodsOf = (files: Record<string, string>) =>
  [
    ...Object.values(files)
      .join('\n')
      .matchAll(/export\s+(?:async\s+)?function\s+(\w+)/g),
  ].map((m) => m[1]!);

export function seedPlugins(store: Store, organizationId: string, projectId: number, clock: SeedClock): void {
  const at = clock.hoursAgo(72);
  for (const p of SEED_PLUGINS) {
    const entry = CATALOGUE.find((c) => c.url === p.url);
    const group = entry?.group ?? p.group!;
    const files = entry?.files ?? sourceTemplate(group, p.name!);
    const builtin = entry?.builtin ?? null;
    const capabilities =
      builtin === 'url-import'
        ? { methods: [], jobs: ['import'], scheduled_tasks: [] }
        : { methods: builtin ? ['onEvent'] : methodsOf(files), jobs: [], scheduled_tasks: [] };
    const id = store.plugins.create(
      {
        organization_id: organizationId,
        grp: group,
        plugin_type: entry ? 'repository' : 'source',
        name: entry?.name ?? p.name!,
        description: entry?.description ?? null,
        url: entry?.url ?? null,
        icon: entry?.icon ?? null,
        tag: entry ? (p.tag ?? entry.latest_tag) : null,
        latest_tag: entry ? entry.latest_tag : null,
        is_global: 0,
        config_schema: JSON.stringify(readConfigSchema(files['plugin.json']).config),
        capabilities: JSON.stringify(capabilities),
        public_jobs: JSON.stringify(builtin === 'url-import' ? { import: { payload: {} } } : {}),
        metrics: '{}',
        source: JSON.stringify(files),
        compiled: '{}',
        builtin,
      },
      at,
    );
    store.activityLog.add(
      {
        organization_id: organizationId,
        project_id: null,
        scope: 'Plugin',
        item_id: String(id),
        activity: 'installed',
        detail: { name: entry?.name ?? p.name!, changes: null, type: group },
        user_id: null,
      },
      at,
    );
    if (!p.enabled) continue;
    const configId = store.pluginConfigs.create(
      projectId,
      id,
      { enabled: true, order: 0, config: p.enabled, secrets: {} },
      at,
    );
    if (p.traffic) {
      for (let h = 23; h >= 0; h -= 1) {
        const delivered = p.traffic.perHour + ((h * 17) % 30);
        const failed = p.traffic.failEvery ? Math.floor(delivered / p.traffic.failEvery / 4) : 0;
        store.pluginConfigs.addMetrics(configId, new Date(clock.nowMs - h * 3_600_000), {
          delivered: delivered - failed,
          failed,
          retried: failed * 2,
        });
      }
      store.pluginConfigs.log(
        configId,
        'INFO',
        'delivery',
        'Delivering events to the destination.',
        clock.hoursAgo(24),
      );
      if (p.traffic.failEvery)
        store.pluginConfigs.log(
          configId,
          'ERROR',
          'delivery',
          'Event was not delivered: https://hooks.hedgebox.example/events answered 503.',
          clock.hoursAgo(2),
        );
    }
    if (builtin === 'url-import') {
      store.pluginConfigs.setJob(configId, {
        name: 'import',
        status: 'completed',
        rows_imported: 1250,
        rows_failed: 3,
        started_at: clock.hoursAgo(30),
        finished_at: clock.hoursAgo(30),
        error: null,
      });
      store.pluginConfigs.log(
        configId,
        'INFO',
        'job',
        'Import finished: 1250 rows imported, 3 skipped.',
        clock.hoursAgo(30),
      );
    }
  }
}
