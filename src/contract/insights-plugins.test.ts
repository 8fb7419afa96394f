import { describe, expect, it } from 'vitest';
import {
  INSIGHT_LIMITS,
  insightCreateSchema,
  insightListQuerySchema,
  insightRetrieveQuerySchema,
  insightSchema,
  insightUpdateSchema,
  myLastViewedResponseSchema,
  pluginCreateSchema,
  pluginParams,
  pluginSchema,
  pluginUpdateSchema,
  sharingConfigurationSchema,
  sharingUpdateSchema,
} from './index';

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path) ?? [];
const messages = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];

const insight = {
  id: 1,
  short_id: 'Ab3dEf7h',
  name: 'Pageviews',
  derived_name: null,
  filters: { insight: 'TRENDS' },
  query: null,
  order: null,
  deleted: false,
  dashboards: [],
  dashboard_tiles: [{ id: 1, dashboard_id: 2, deleted: null }],
  last_refresh: null,
  result: null,
  columns: null,
  created_at: '2024-01-01T00:00:00Z',
  created_by: null,
  description: '',
  updated_at: '2024-01-01T00:00:00Z',
  tags: ['growth'],
  favorited: false,
  saved: true,
  last_modified_at: '2024-01-01T00:00:00Z',
  last_modified_by: null,
  is_sample: false,
  effective_restriction_level: 21,
  effective_privilege_level: 37,
  timezone: 'UTC',
  is_cached: true,
  query_status: null,
  hogql: null,
  brand_new_field: [1],
};

describe('insights', () => {
  it('parse with extra fields kept', () => {
    expect(insightSchema.parse(insight).brand_new_field).toEqual([1]);
    expect(insightSchema.safeParse({ ...insight, id: 'one' }).success).toBe(false);
  });
  it('create strips read-only fields and accepts the query as an object or JSON text', () => {
    const body = insightCreateSchema.parse({
      name: 'x',
      short_id: 'zzzzzzzz',
      result: [1],
      query: '{"kind":"TrendsQuery"}',
    });
    expect(body).toEqual({ name: 'x', query: { kind: 'TrendsQuery' } });
    expect(insightCreateSchema.parse({ query: { kind: 'FunnelsQuery' } }).query).toEqual({ kind: 'FunnelsQuery' });
    const bad = insightCreateSchema.safeParse({ query: '{not json' });
    expect(paths(bad)).toEqual([['query']]);
    expect(messages(bad)).toEqual(['Value must be valid JSON.']);
  });
  it('checks order as a 32-bit integer and types of the other fields', () => {
    expect(paths(insightCreateSchema.safeParse({ order: 2 ** 31 }))).toEqual([['order']]);
    expect(insightCreateSchema.safeParse({ order: -(2 ** 31) }).success).toBe(true);
    const r = insightUpdateSchema.safeParse({ deleted: 'yes', tags: 'growth', dashboards: [1.5] });
    expect(paths(r)).toEqual([['deleted'], ['dashboards', 0], ['tags']]);
    expect(messages(r)).toEqual([
      'Must be a valid boolean.',
      'A valid integer is required.',
      'Expected a list of items but got type "str".',
    ]);
  });
  it('bounds tags, text and the JSON of filters and query, naming the field', () => {
    const tooMany = insightCreateSchema.safeParse({
      tags: Array.from({ length: INSIGHT_LIMITS.tags + 1 }, (_, i) => `t${i}`),
    });
    expect(paths(tooMany)).toEqual([['tags']]);
    expect(paths(insightCreateSchema.safeParse({ tags: ['x'.repeat(INSIGHT_LIMITS.tagLength + 1)] }))).toEqual([
      ['tags', 0],
    ]);
    expect(
      paths(insightCreateSchema.safeParse({ description: 'd'.repeat(INSIGHT_LIMITS.descriptionLength + 1) })),
    ).toEqual([['description']]);
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(paths(insightCreateSchema.safeParse({ filters: { insight: 'TRENDS', events: deep } }))).toEqual([
      ['filters'],
    ]);
    expect(paths(insightCreateSchema.safeParse({ query: { kind: 'TrendsQuery', s: deep } }))).toEqual([['query']]);
    const big = 'x'.repeat(INSIGHT_LIMITS.jsonLength);
    expect(paths(insightCreateSchema.safeParse({ filters: { big } }))).toEqual([['filters']]);
    expect(paths(insightCreateSchema.safeParse({ query: JSON.stringify({ big }) }))).toEqual([['query']]);
    expect(insightCreateSchema.safeParse({ tags: ['a', 'b'], filters: { insight: 'TRENDS' } }).success).toBe(true);
  });
  it('sharing PATCH takes enabled only', () => {
    expect(sharingUpdateSchema.parse({ enabled: true, access_token: 'x' })).toEqual({ enabled: true });
    expect(paths(sharingUpdateSchema.safeParse({ enabled: 'yes' }))).toEqual([['enabled']]);
  });
  it('soft-delete is a plain PATCH field', () => {
    expect(insightUpdateSchema.parse({ deleted: true })).toEqual({ deleted: true });
  });
  it('list query parses text into typed filters', () => {
    expect(
      insightListQuerySchema.parse({
        limit: '10',
        created_by: '3',
        favorited: 'true',
        saved: 'false',
        search: 'page',
        order: '-last_modified_at',
        format: 'json',
      }),
    ).toEqual({
      limit: 10,
      created_by: 3,
      favorited: true,
      saved: false,
      search: 'page',
      order: '-last_modified_at',
      format: 'json',
    });
    expect(paths(insightListQuerySchema.safeParse({ created_by: 'me', format: 'xml', order: 'random' }))).toEqual([
      ['created_by'],
      ['format'],
      ['order'],
    ]);
    expect(insightRetrieveQuerySchema.parse({ refresh: 'true', from_dashboard: '4' })).toEqual({
      refresh: true,
      from_dashboard: 4,
    });
  });
  it('sharing configuration and my_last_viewed', () => {
    expect(sharingConfigurationSchema.parse({ created_at: null, enabled: false, access_token: 'tok', x: 1 }).x).toBe(1);
    expect(
      myLastViewedResponseSchema.parse([
        { id: 1, short_id: 'Ab3dEf7h', name: null, derived_name: 'Pageviews', last_viewed_at: '2024-01-01T00:00:00Z' },
      ]),
    ).toHaveLength(1);
  });
});

describe('plugins', () => {
  const plugin = {
    id: 7,
    plugin_type: 'local',
    name: 'GeoIP',
    description: null,
    url: null,
    icon: null,
    config_schema: {},
    tag: null,
    latest_tag: null,
    is_global: false,
    organization_id: 'o',
    organization_name: 'Org',
    capabilities: {},
    metrics: {},
    public_jobs: {},
    new: true,
  };
  it('parse with an integer id and extra fields', () => {
    expect(pluginSchema.parse(plugin).new).toBe(true);
    expect(pluginSchema.safeParse({ ...plugin, id: '7' }).success).toBe(false);
  });
  it('create requires a name (a url for repository plugins), defaults plugin_type and strips read-only fields', () => {
    expect(
      pluginCreateSchema.parse({ name: 'GeoIP', latest_tag: 'v2', is_global: true, organization_id: 'x' }),
    ).toEqual({ name: 'GeoIP', plugin_type: 'local', is_global: true });
    expect(pluginCreateSchema.parse({ plugin_type: 'repository', url: 'https://github.com/x/y' })).toEqual({
      plugin_type: 'repository',
      url: 'https://github.com/x/y',
    });
    expect(paths(pluginCreateSchema.safeParse({ plugin_type: 'repository' }))).toEqual([['url']]);
    expect(messages(pluginCreateSchema.safeParse({}))).toEqual(['This field is required.']);
    expect(messages(pluginCreateSchema.safeParse({ name: 'x', plugin_type: 'npm' }))).toEqual([
      '"npm" is not a valid choice.',
    ]);
  });
  it('update is partial and does not reset plugin_type', () => {
    expect(pluginUpdateSchema.parse({ description: 'd' })).toEqual({ description: 'd' });
  });
  it('path id is an integer', () => {
    expect(pluginParams.parse({ organization_id: 'o', id: '12' }).id).toBe(12);
    expect(pluginParams.safeParse({ organization_id: 'o', id: 'abc' }).success).toBe(false);
  });
});
