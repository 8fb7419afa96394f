import { describe, expect, it } from 'vitest';
import {
  BATCH_EXPORT_DESTINATIONS,
  batchExportBackfillSchema,
  batchExportCreateSchema,
  batchExportLogEntrySchema,
  batchExportRunSchema,
  batchExportSchema,
  batchExportUpdateSchema,
  defaultDestinationConfig,
  DESTINATION_SECRET_FIELDS,
  DESTINATION_TYPES,
  destinationConfigs,
  destinationCreateSchema,
  knownDestinationSchema,
  mergeDestinationConfig,
  pageSchema,
  redactDestination,
} from './index';

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path) ?? [];
const messages = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];

const s3 = {
  type: 'S3',
  config: { bucket_name: 'b', region: 'us-east-1', aws_access_key_id: 'AKIA', aws_secret_access_key: 'secret' },
};
const run = {
  id: 'r1',
  status: 'Cancelled',
  records_completed: 3,
  latest_error: null,
  data_interval_start: '2024-01-01T00:00:00Z',
  data_interval_end: '2024-01-01T01:00:00Z',
  cursor: null,
  created_at: '2024-01-01T01:00:00Z',
  finished_at: null,
  last_updated_at: '2024-01-01T01:00:00Z',
  records_total_count: null,
  batch_export: 'e1',
};
const exportResponse = {
  id: 'e1',
  team_id: 1,
  name: 'To S3',
  model: 'events',
  destination: {
    type: 'S3',
    config: { bucket_name: 'b', region: 'us-east-1', aws_access_key_id: 'AKIA', prefix: '', file_format: 'JSONLines' },
  },
  interval: 'hour',
  paused: false,
  created_at: '2024-01-01T00:00:00Z',
  last_updated_at: '2024-01-01T00:00:00Z',
  last_paused_at: null,
  start_at: null,
  end_at: null,
  latest_runs: [run],
  hogql_query: null,
  schema: null,
  extra: 'kept',
};

describe('batch export responses', () => {
  it('parse with extra fields kept, and without any secret in the config', () => {
    const e = batchExportSchema.parse(exportResponse);
    expect(e.extra).toBe('kept');
    expect(e.latest_runs[0]!.status).toBe('Cancelled');
    expect(knownDestinationSchema.safeParse(exportResponse.destination).success).toBe(true);
  });
  it('do not require secrets for any destination type', () => {
    for (const type of DESTINATION_TYPES) {
      const config = defaultDestinationConfig(type);
      for (const field of BATCH_EXPORT_DESTINATIONS.find((d) => d.type === type)!.fields) {
        if (field.kind === 'text' && field.required)
          config[field.name] = field.name === 'client_email' ? 'a@b.co' : field.name === 'url' ? 'https://x.io' : 'v';
      }
      for (const secret of DESTINATION_SECRET_FIELDS[type]) {
        expect(config).toHaveProperty(secret);
        delete config[secret];
      }
      const r = knownDestinationSchema.safeParse({ type, config });
      expect(r.error?.issues ?? [], type).toEqual([]);
      const responseKeys = Object.keys(destinationConfigs[type].response.shape);
      for (const secret of DESTINATION_SECRET_FIELDS[type]) expect(responseKeys, type).not.toContain(secret);
    }
  });
  it('accept an unknown destination type from a real instance', () => {
    expect(
      batchExportSchema.safeParse({ ...exportResponse, destination: { type: 'AzureBlob', config: { x: 1 } } }).success,
    ).toBe(true);
  });
  it('reject an unknown run status', () => {
    expect(batchExportRunSchema.safeParse({ ...run, status: 'Paused' }).success).toBe(false);
  });
  it('log entries come in a Page', () => {
    const page = pageSchema(batchExportLogEntrySchema).parse({
      count: 1,
      next: null,
      previous: null,
      results: [{ timestamp: '2024-01-01T00:00:00Z', level: 'INFO', message: 'done', run_id: 'r1' }],
    });
    expect(page.results[0]!.run_id).toBe('r1');
  });
});

describe('batch export create', () => {
  it('applies defaults and strips read-only fields', () => {
    const body = batchExportCreateSchema.parse({
      name: 'PG',
      interval: 'every 5 minutes',
      id: 'nope',
      latest_runs: [],
      destination: { type: 'Postgres', config: { host: 'h', database: 'd', user: 'u', password: 'p' } },
    });
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('latest_runs');
    expect(body.model).toBe('events');
    expect(body.destination.config).toMatchObject({ port: 5432, schema: 'public', table_name: 'events' });
    const rs = destinationCreateSchema.parse({
      type: 'Redshift',
      config: { host: 'h', database: 'd', user: 'u', password: 'p' },
    });
    expect(rs.config).toMatchObject({ port: 5439 });
  });
  it('names the missing config field in the path', () => {
    const { bucket_name: _omit, ...config } = s3.config;
    const r = batchExportCreateSchema.safeParse({ name: 'x', interval: 'hour', destination: { ...s3, config } });
    expect(paths(r)).toEqual([['destination', 'config', 'bucket_name']]);
    expect(messages(r)).toEqual(['This field is required.']);
  });
  it('requires secrets on create', () => {
    const { aws_secret_access_key: _omit, ...config } = s3.config;
    const r = batchExportCreateSchema.safeParse({ name: 'x', interval: 'hour', destination: { ...s3, config } });
    expect(paths(r)).toEqual([['destination', 'config', 'aws_secret_access_key']]);
  });
  it('rejects unknown interval, model and destination type with production messages', () => {
    const r = batchExportCreateSchema.safeParse({
      name: 'x',
      interval: 'month',
      model: 'sessions',
      destination: { type: 'FTP', config: {} },
    });
    expect(paths(r)).toEqual([['interval'], ['model'], ['destination', 'type']]);
    expect(messages(r)).toEqual([
      '"month" is not a valid choice.',
      '"sessions" is not a valid choice.',
      '"FTP" is not a valid choice.',
    ]);
  });
  it('validates typed config fields', () => {
    const r = destinationCreateSchema.safeParse({
      type: 'Postgres',
      config: { host: 'h', database: 'd', user: 'u', password: 'p', port: 70000 },
    });
    expect(paths(r)).toEqual([['config', 'port']]);
    const http = destinationCreateSchema.safeParse({ type: 'HTTP', config: { url: 'not a url', token: 't' } });
    expect(messages(http)).toEqual(['Enter a valid URL.']);
  });
});

describe('batch export update', () => {
  it('lets secrets be omitted and does not reset defaulted fields', () => {
    const body = batchExportUpdateSchema.parse({
      destination: { type: 'Postgres', config: { host: 'h2', database: 'd', user: 'u' } },
    });
    expect(body.destination?.config).toEqual({ host: 'h2', database: 'd', user: 'u' });
    expect(batchExportUpdateSchema.parse({ paused: true })).toEqual({ paused: true });
  });
  it('still validates given fields', () => {
    expect(
      paths(batchExportUpdateSchema.safeParse({ destination: { type: 'S3', config: { region: 'x' } } })),
    ).toContainEqual(['destination', 'config', 'bucket_name']);
  });
  it('merges into the stored config, keeping secrets', () => {
    const stored = { type: 'S3', config: { ...s3.config, prefix: 'a/' } };
    expect(mergeDestinationConfig(stored, { type: 'S3', config: { prefix: 'b/' } })).toEqual({
      ...s3.config,
      prefix: 'b/',
    });
    expect(mergeDestinationConfig(stored, { type: 'HTTP', config: { url: 'https://x.io' } })).toEqual({
      url: 'https://x.io',
    });
    expect(redactDestination(stored).config).not.toHaveProperty('aws_secret_access_key');
  });
});

describe('backfill', () => {
  it('accepts a zoned range', () => {
    expect(
      batchExportBackfillSchema.safeParse({ start_at: '2024-01-01T00:00:00Z', end_at: '2024-01-02T00:00:00+02:00' })
        .success,
    ).toBe(true);
  });
  it('requires a time zone', () => {
    const r = batchExportBackfillSchema.safeParse({ start_at: '2024-01-01T00:00:00', end_at: '2024-01-02T00:00:00Z' });
    expect(paths(r)).toEqual([['start_at']]);
  });
  it('rejects start >= end on end_at', () => {
    const r = batchExportBackfillSchema.safeParse({
      start_at: '2024-01-02T00:00:00Z',
      end_at: '2024-01-02T01:00:00+01:00',
    });
    expect(paths(r)).toEqual([['end_at']]);
  });
  it('requires both bounds', () => {
    expect(messages(batchExportBackfillSchema.safeParse({}))).toEqual([
      'This field is required.',
      'This field is required.',
    ]);
  });
});

describe('destination field metadata', () => {
  it('describes every type and agrees with the create schema', () => {
    expect(BATCH_EXPORT_DESTINATIONS.map((d) => d.type)).toEqual([...DESTINATION_TYPES]);
    for (const { type, fields } of BATCH_EXPORT_DESTINATIONS) {
      const shapeKeys = Object.keys(destinationConfigs[type].create.shape).sort();
      expect(fields.map((f) => f.name).sort(), type).toEqual(shapeKeys);
      expect(
        fields
          .filter((f) => f.kind === 'secret')
          .map((f) => f.name)
          .sort(),
        type,
      ).toEqual([...DESTINATION_SECRET_FIELDS[type]].sort());
      const parsedEmpty = destinationConfigs[type].create.safeParse({});
      const missing = (parsedEmpty.error?.issues ?? []).map((i) => String(i.path[0])).sort();
      expect(
        fields
          .filter((f) => f.required)
          .map((f) => f.name)
          .sort(),
        type,
      ).toEqual(missing);
      const defaults = destinationConfigs[type].create.safeParse(
        Object.fromEntries(
          fields
            .filter((f) => f.required)
            .map((f) => [f.name, f.name === 'client_email' ? 'a@b.co' : f.name === 'url' ? 'https://x.io' : 'v']),
        ),
      );
      for (const f of fields.filter((x) => x.default !== undefined))
        expect(defaults.data?.[f.name as never], f.name).toEqual(f.default);
    }
  });
});
