import { afterAll, describe, expect, it } from 'vitest';
import { endpoints, INSIGHT_LIMITS, inviteAcceptEndpoint, sharedInsightEndpoint } from '../../src/contract/index.ts';
import { createTestServer } from './helpers.ts';

const server = createTestServer();
afterAll(() => server.close());

const served = [
  ...Object.values(endpoints.organizations),
  ...Object.values(endpoints.projects),
  ...Object.values(endpoints.personalApiKeys),
  ...Object.values(endpoints.batchExports),
  ...Object.values(endpoints.users),
  ...Object.values(endpoints.eventDefinitions),
  ...Object.values(endpoints.propertyDefinitions),
  ...Object.values(endpoints.propertyValues),
  endpoints.insights.trendGet,
  endpoints.insights.trend,
  endpoints.insights.funnelCorrelationGet,
  endpoints.insights.funnelCorrelation,
  endpoints.insights.funnelGet,
  endpoints.insights.funnel,
  endpoints.insights.retentionGet,
  endpoints.insights.retention,
  endpoints.insights.pathGet,
  endpoints.insights.path,
  ...Object.values(endpoints.persons),
  ...(
    [
      'list',
      'create',
      'cancel',
      'timing',
      'activity',
      'myLastViewed',
      'retrieve',
      'update',
      'destroy',
      'sharing',
      'sharingUpdate',
      'sharingRefresh',
      'itemActivity',
      'viewed',
    ] as const
  ).map((k) => endpoints.insights[k]),
  sharedInsightEndpoint,
  ...Object.values(endpoints.members),
  ...Object.values(endpoints.invites),
  ...Object.values(endpoints.domains),
  inviteAcceptEndpoint,
  ...Object.values(endpoints.pipelineDestinations),
  ...Object.values(endpoints.pipelineFrontendApps),
  ...Object.values(endpoints.pipelineImportApps),
  ...Object.values(endpoints.pluginConfigs),
  ...Object.values(endpoints.cohorts),
  ...Object.values(endpoints.groups),
];
const toOpenApi = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('GET /api/schema/', () => {
  it('is an OpenAPI 3.1 document, readable without a key', async () => {
    const res = await server.get('/api/schema/', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.components.securitySchemes.PersonalAPIKeyAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lists exactly the registered routes, each with its method', async () => {
    const { paths } = (await server.get('/api/schema/')).body as { paths: Record<string, Record<string, unknown>> };
    const listed = Object.entries(paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const expected = [...served.map((e) => `${e.method} ${toOpenApi(e.path)}`), 'GET /api/schema/'].sort();
    expect(listed).toEqual(expected);
  });

  it('carries scopes, parameters, request bodies (input shape) and responses', async () => {
    const { paths } = (await server.get('/api/schema/')).body;
    const create = paths['/api/organizations/'].post;
    expect(create.security).toEqual([{ PersonalAPIKeyAuth: ['organization:write'] }]);
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 64 } },
    });
    expect(create.responses['201'].content['application/json'].schema.properties.slug).toEqual({ type: 'string' });
    expect(create.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiError');

    const list = paths['/api/organizations/'].get;
    expect(list.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'query:limit',
      'query:offset',
    ]);
    const retrieve = paths['/api/organizations/{id}/'].get;
    expect(retrieve.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      schema: { format: 'uuid' },
    });
    expect(paths['/api/organizations/{id}/'].delete.responses['204']).toBeDefined();
    expect(paths['/api/personal_api_keys/@current/'].get.security).toEqual([{ PersonalAPIKeyAuth: [] }]);
  });

  it('shows the bounds of insight inputs and the public shared view', async () => {
    const { paths } = (await server.get('/api/schema/')).body;
    const body = paths['/api/projects/{project_id}/insights/'].post.requestBody.content['application/json'].schema;
    expect(body.properties.tags).toMatchObject({
      maxItems: INSIGHT_LIMITS.tags,
      items: { maxLength: INSIGHT_LIMITS.tagLength },
    });
    expect(body.properties.description.anyOf?.[0] ?? body.properties.description).toMatchObject({
      maxLength: INSIGHT_LIMITS.descriptionLength,
    });
    expect(JSON.stringify(body.properties.query)).toContain(`"maxLength":${INSIGHT_LIMITS.jsonLength}`);
    expect(paths['/api/projects/{project_id}/insights/{insight_id}/sharing/'].patch.security).toEqual([
      { PersonalAPIKeyAuth: ['sharing_configuration:write'] },
    ]);
    expect(paths['/shared/{access_token}/insight/'].get.security).toEqual([]);
  });
});
