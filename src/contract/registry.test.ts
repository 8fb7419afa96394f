import { describe, expect, it } from 'vitest';
import { z } from './z';
import { allEndpoints, endpoints, type Endpoint } from './index';

const find = (method: string, path: string): Endpoint | undefined =>
  allEndpoints.find((e) => e.method === method && e.path === path);
const ORG = '/api/organizations/:organization_id';
const PRJ = '/api/projects/:project_id';

describe('endpoint registry', () => {
  it('registers every group', () => {
    expect(Object.keys(endpoints).sort()).toEqual([
      'batchExports',
      'cohorts',
      'domains',
      'eventDefinitions',
      'groups',
      'insights',
      'invites',
      'members',
      'organizations',
      'personalApiKeys',
      'persons',
      'pipelineDestinations',
      'pipelineFrontendApps',
      'pipelineImportApps',
      'pluginConfigs',
      'projects',
      'propertyDefinitions',
      'propertyValues',
      'users',
    ]);
  });
  it('has unique method + path, all under /api/ with a trailing slash', () => {
    const keys = allEndpoints.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const e of allEndpoints) expect(e.path).toMatch(/^\/api\/.*\/$/);
  });
  it('declares every path parameter in params', () => {
    for (const e of allEndpoints) {
      const names = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      if (names.length === 0) continue;
      const shape = (e.params as z.ZodMiniObject | undefined)?.shape ?? {};
      expect(Object.keys(shape).sort(), `${e.method} ${e.path}`).toEqual(names.sort());
    }
  });
  it('puts static paths before parameter paths with the same prefix', () => {
    for (const group of Object.values(endpoints)) {
      const list: Endpoint[] = Object.values(group);
      list.forEach((e, i) => {
        const later = list.slice(i + 1);
        const shadowed = later.find(
          (l) =>
            l.method === e.method &&
            !l.path.includes(':id') &&
            e.path.includes(':') &&
            new RegExp(`^${e.path.replace(/:\w+/g, '[^/]+')}$`).test(l.path) &&
            e.path !== l.path,
        );
        expect(shadowed?.path, e.path).toBeUndefined();
      });
    }
  });
  it.each([])('† %s %s is closed to keys', (method, path) => {
    expect(find(method, path)?.access).toBeNull();
  });
  it.each([
    ['GET', `${ORG}/pipeline_destinations/:id/check_for_updates/`, 'plugin:read'],
    ['GET', `${ORG}/pipeline_frontend_apps/:id/source/`, 'plugin:read'],
    ['GET', `${ORG}/pipeline_destinations/repository/`, 'plugin:read'],
    ['GET', `${ORG}/pipeline_frontend_apps/unused/`, 'plugin:read'],
    ['GET', `${ORG}/pipeline_destinations/activity/`, 'plugin:read'],
    ['GET', `${ORG}/pipeline_destinations/exports_unsubscribe_configs/`, 'plugin:read'],
    ['PATCH', `${ORG}/pipeline_frontend_apps/:id/update_source/`, 'plugin:write'],
    ['POST', `${ORG}/pipeline_destinations/:id/upgrade/`, 'plugin:write'],
    ['PATCH', `${PRJ}/plugin_configs/:id/`, 'plugin:write'],
  ])('† plugin endpoint %s %s takes the scope docs/api.md gives it', (method, path, scope) => {
    expect(find(method, path)?.access).toBe(scope);
  });
  it.each([
    ['GET', `${PRJ}/insights/my_last_viewed/`, 'insight:read'],
    ['POST', `${PRJ}/insights/:id/viewed/`, 'insight:read'],
    ['POST', `${PRJ}/insights/cancel/`, 'insight:read'],
    ['POST', `${PRJ}/insights/timing/`, 'insight:read'],
    ['GET', `${PRJ}/insights/funnel/correlation/`, 'insight:read'],
    ['POST', `${PRJ}/insights/funnel/correlation/`, 'insight:read'],
    ['GET', `${PRJ}/insights/activity/`, 'activity_log:read'],
    ['GET', `${PRJ}/insights/:id/activity/`, 'activity_log:read'],
    ['PATCH', `${PRJ}/insights/:insight_id/sharing/`, 'sharing_configuration:write'],
    ['POST', `${PRJ}/insights/:insight_id/sharing/refresh/`, 'sharing_configuration:write'],
  ])('† insight endpoint %s %s takes the scope docs/api.md gives it', (method, path, scope) => {
    expect(find(method, path)?.access).toBe(scope);
  });
  it('gives the scopes of the API and of docs/api.md', () => {
    expect(find('GET', `${ORG}/batch_exports/:id/logs/`)?.access).toBe('batch_export:read');
    expect(find('GET', `${ORG}/batch_exports/:id/runs/`)?.access).toBe('batch_export:read');
    expect(find('POST', `${ORG}/batch_exports/:id/pause/`)?.access).toBe('batch_export:write');
    expect(find('PATCH', `${ORG}/members/:user__uuid/`)?.access).toBe('organization_member:write');
    expect(find('POST', `${ORG}/invites/bulk/`)?.access).toBe('organization_member:write');
    expect(find('POST', `${ORG}/domains/:id/verify/`)?.access).toBe('organization:write');
    expect(find('POST', `${PRJ}/insights/trend/`)?.access).toBe('insight:read');
    expect(find('GET', `${PRJ}/insights/:insight_id/sharing/`)?.access).toBe('sharing_configuration:read');
    expect(find('GET', `${PRJ}/insights/:id/activity/`)?.access).toBe('activity_log:read');
    expect(find('DELETE', `${PRJ}/insights/:id/`)?.status).toBe(405);
    expect(find('POST', `${PRJ}/cohorts/`)?.access).toBe('cohort:write');
    expect(find('GET', `${PRJ}/cohorts/:id/persons/`)?.access).toBe('cohort:read');
    expect(find('DELETE', `${PRJ}/cohorts/:id/`)?.status).toBe(405);
  });
  it('gives import apps list, create, retrieve, delete, check for updates and upgrade', () => {
    expect(Object.values(endpoints.pipelineImportApps).map((e) => e.method + ' ' + e.path.replace(ORG, ''))).toEqual([
      'GET /pipeline_import_apps/',
      'POST /pipeline_import_apps/',
      'GET /pipeline_import_apps/:id/',
      'DELETE /pipeline_import_apps/:id/',
      'GET /pipeline_import_apps/:id/check_for_updates/',
      'POST /pipeline_import_apps/:id/upgrade/',
    ]);
    expect(Object.keys(endpoints.pipelineDestinations)).toHaveLength(13);
  });
  it('offers trend, funnel, retention and path as GET and POST', () => {
    for (const kind of ['trend', 'funnel', 'retention', 'path']) {
      expect(find('GET', `${PRJ}/insights/${kind}/`)?.query, kind).toBeDefined();
      expect(find('POST', `${PRJ}/insights/${kind}/`)?.body, kind).toBeDefined();
    }
  });
  it('can describe every schema as JSON Schema (for the OpenAPI document)', () => {
    for (const e of allEndpoints) {
      for (const s of [e.params, e.query, e.body, e.response]) {
        if (s)
          expect(
            () => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }),
            `${e.method} ${e.path}`,
          ).not.toThrow();
      }
    }
  });
});
