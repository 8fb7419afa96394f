import type { PluginGroup, PluginRepositoryEntry } from '../../src/contract/index.ts';

/**
 * The plugin catalogue the server ships (`repository/`): what can be installed by `url`, its
 * latest tag and its files. `builtin` names the server's own implementation (builtins.ts) for
 * plugins that deliver or import over HTTP; the others run their compiled source in the sandbox.
 */
export interface CatalogueEntry extends PluginRepositoryEntry {
  group: PluginGroup;
  builtin: 'webhook' | 'slack' | 'url-import' | null;
  files: Record<string, string>;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const WEBHOOK_SCHEMA = [
  { key: 'url', name: 'Webhook URL', type: 'string', required: true, hint: 'Each event is POSTed here as JSON.' },
  {
    key: 'headers',
    name: 'Extra headers',
    type: 'json',
    required: false,
    default: '{}',
    hint: 'A JSON object of header names and values.',
  },
  { key: 'auth_token', name: 'Bearer token', type: 'string', required: false, secret: true },
  {
    key: 'events',
    name: 'Only these events',
    type: 'string',
    required: false,
    hint: 'Comma-separated event names; empty sends every event.',
  },
];
const SLACK_SCHEMA = [
  { key: 'webhook_url', name: 'Incoming webhook URL', type: 'string', required: true, secret: true },
  {
    key: 'events',
    name: 'Events to announce',
    type: 'string',
    required: true,
    default: '$identify',
    hint: 'Comma-separated event names.',
  },
  { key: 'message', name: 'Message', type: 'string', required: false, default: '{person} did {event}' },
];
const IMPORT_SCHEMA = (format: 'csv' | 'jsonl') => [
  {
    key: 'url',
    name: 'File URL',
    type: 'string',
    required: true,
    hint:
      format === 'csv'
        ? 'A CSV file with a header row: event, distinct_id, timestamp and property columns.'
        : 'One JSON event per line: {event, distinct_id, timestamp, properties}.',
  },
  { key: 'format', name: 'Format', type: 'choice', choices: ['csv', 'jsonl'], default: format, required: true },
  { key: 'auth_header', name: 'Authorization header', type: 'string', required: false, secret: true },
];

const LOGGER_SOURCE = `// Logs each event it receives; a starting point for your own destination.
export function onEvent(event, { config }) {
  if (config.prefix !== undefined) console.log(config.prefix + ' ' + event.event + ' from ' + event.distinct_id)
}
`;

const NOTIFICATION_BAR = `export function inject({ config, posthog }) {
  const bar = document.createElement('div')
  bar.setAttribute('role', 'status')
  bar.textContent = config.message
  bar.style.cssText = 'position:fixed;top:0;left:0;right:0;padding:8px;text-align:center;z-index:9999;background:' + (config.background || '#1d4aff') + ';color:#fff'
  document.body.appendChild(bar)
  posthog?.capture?.('notification bar shown')
}
`;

const FEEDBACK_WIDGET = `export function inject({ config }) {
  const button = document.createElement('button')
  button.type = 'button'
  button.textContent = config.buttonText || 'Feedback'
  button.style.cssText = 'position:fixed;bottom:16px;right:16px;z-index:9999'
  document.body.appendChild(button)
}
`;

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: 'Webhook',
    url: 'https://github.com/analytics-plugins/webhook-destination',
    group: 'pipeline_destinations',
    builtin: 'webhook',
    description: 'POST every event as JSON to a URL, with your headers; retried on failure.',
    icon: 'webhook',
    latest_tag: '1.2.0',
    files: {
      'plugin.json': json({
        name: 'Webhook',
        description: 'POST every event as JSON to a URL.',
        config: WEBHOOK_SCHEMA,
      }),
    },
  },
  {
    name: 'Slack notifications',
    url: 'https://github.com/analytics-plugins/slack-destination',
    group: 'pipeline_destinations',
    builtin: 'slack',
    description: 'Post a message to a Slack channel when chosen events happen.',
    icon: 'message-square',
    latest_tag: '1.1.0',
    files: {
      'plugin.json': json({
        name: 'Slack notifications',
        description: 'Post a message to Slack for chosen events.',
        config: SLACK_SCHEMA,
      }),
    },
  },
  {
    name: 'Event logger',
    url: 'https://github.com/analytics-plugins/event-logger',
    group: 'pipeline_destinations',
    builtin: null,
    description: 'Writes each event to the plugin log: an example destination written in TypeScript.',
    icon: 'scroll-text',
    latest_tag: '0.3.0',
    files: {
      'plugin.json': json({
        name: 'Event logger',
        description: 'Writes each event to the log.',
        config: [{ key: 'prefix', name: 'Prefix', type: 'string', default: 'event', required: false }],
      }),
      'index.ts': LOGGER_SOURCE,
    },
  },
  {
    name: 'Notification bar',
    url: 'https://github.com/analytics-plugins/notification-bar',
    group: 'pipeline_frontend_apps',
    builtin: null,
    description: 'Show a message in a bar at the top of your web site.',
    icon: 'megaphone',
    latest_tag: '1.0.1',
    files: {
      'plugin.json': json({
        name: 'Notification bar',
        description: 'A message bar on your web site.',
        config: [
          { key: 'message', name: 'Message', type: 'string', required: true, default: 'Hello from the pipeline' },
          { key: 'background', name: 'Background colour', type: 'string', required: false, default: '#1d4aff' },
        ],
      }),
      'site.ts': NOTIFICATION_BAR,
    },
  },
  {
    name: 'Feedback widget',
    url: 'https://github.com/analytics-plugins/feedback-widget',
    group: 'pipeline_frontend_apps',
    builtin: null,
    description: 'A feedback button in the corner of your web site.',
    icon: 'message-circle',
    latest_tag: '0.9.0',
    files: {
      'plugin.json': json({
        name: 'Feedback widget',
        description: 'A feedback button.',
        config: [{ key: 'buttonText', name: 'Button text', type: 'string', default: 'Feedback' }],
      }),
      'site.ts': FEEDBACK_WIDGET,
    },
  },
  {
    name: 'CSV importer',
    url: 'https://github.com/analytics-plugins/csv-import',
    group: 'pipeline_import_apps',
    builtin: 'url-import',
    description: 'Import events from a CSV file at a URL.',
    icon: 'file-spreadsheet',
    latest_tag: '1.0.0',
    files: {
      'plugin.json': json({
        name: 'CSV importer',
        description: 'Import events from a CSV file.',
        config: IMPORT_SCHEMA('csv'),
      }),
    },
  },
  {
    name: 'JSON lines importer',
    url: 'https://github.com/analytics-plugins/jsonl-import',
    group: 'pipeline_import_apps',
    builtin: 'url-import',
    description: 'Import events from a JSON lines file at a URL.',
    icon: 'file-json',
    latest_tag: '1.0.0',
    files: {
      'plugin.json': json({
        name: 'JSON lines importer',
        description: 'Import events from JSON lines.',
        config: IMPORT_SCHEMA('jsonl'),
      }),
    },
  },
];

export const catalogueEntry = (url: string | null): CatalogueEntry | undefined =>
  url === null ? undefined : CATALOGUE.find((e) => e.url === url.replace(/\/+$/, ''));

/** The entry as `repository/` lists it (no files, no implementation detail). */
export const repositoryEntry = ({
  name,
  url,
  description,
  icon,
  latest_tag,
  group,
}: CatalogueEntry): PluginRepositoryEntry => ({ name, url, description, icon, latest_tag, group });
