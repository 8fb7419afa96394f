import { describe, expect, it } from 'vitest';
import type { PluginConfigField } from '@/contract/plugins';
import { configFormDefaults, configFormSchema } from './config-schema';

const fields: PluginConfigField[] = [
  { key: 'endpoint', name: 'Endpoint', type: 'string', required: true },
  { key: 'region', name: 'Region', type: 'choice', choices: ['us', 'eu'], default: 'us', required: true },
  { key: 'batched', name: 'Batched', type: 'boolean', default: true },
  { key: 'mapping', name: 'Mapping', type: 'json', default: { a: 1 } },
  { key: 'token', name: 'Token', type: 'string', secret: true, required: true },
  { name: 'No key: nothing to set' },
];

const issues = (result: ReturnType<ReturnType<typeof configFormSchema>['safeParse']>) =>
  result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);

describe('the config form’s schema, generated from config_schema', () => {
  it('starts from the stored values, else the defaults (JSON as text), secrets empty, and skips entries without a key', () => {
    expect(configFormDefaults(fields, null)).toEqual({
      enabled: false,
      config: { endpoint: '', region: 'us', batched: true, mapping: '{"a":1}', token: '' },
    });
  });

  it('requires a required field without a default only when enabled; a stored secret counts as set', () => {
    const values = { enabled: false, config: { endpoint: '', region: '', batched: false, mapping: '', token: '' } };
    expect(issues(configFormSchema(fields).safeParse(values))).toEqual([]);
    expect(issues(configFormSchema(fields).safeParse({ ...values, enabled: true }))).toEqual([
      ['config.endpoint', 'Endpoint is required.'],
      ['config.token', 'Token is required.'],
    ]);
    expect(issues(configFormSchema(fields, ['token']).safeParse({ ...values, enabled: true }))).toEqual([
      ['config.endpoint', 'Endpoint is required.'],
    ]);
  });

  it('checks each type with the server’s words', () => {
    const values = {
      enabled: false,
      config: { endpoint: 'x'.repeat(10_001), region: 'apac', batched: true, mapping: '{"a": ', token: '' },
    };
    expect(issues(configFormSchema(fields).safeParse(values))).toEqual([
      ['config.endpoint', 'Ensure this field has no more than 10000 characters.'],
      ['config.region', '"apac" is not a valid choice.'],
      ['config.mapping', 'Must be valid JSON.'],
    ]);
  });

  it('sends an emptied field as null and leaves an empty secret out (the stored one stays)', () => {
    const parsed = configFormSchema(fields, ['token']).parse({
      enabled: true,
      config: { endpoint: 'https://x.example', region: '', batched: false, mapping: '', token: '' },
    });
    expect(parsed).toEqual({
      enabled: true,
      config: { endpoint: 'https://x.example', region: null, batched: false, mapping: null },
    });
  });
});
