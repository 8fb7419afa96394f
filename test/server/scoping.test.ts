import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer, HEDGEBOX, NORTHWIND } from './helpers.ts';

const server = createTestServer();
afterAll(() => server.close());
const hedgebox = server.orgIds[HEDGEBOX]!;
const northwind = server.orgIds[NORTHWIND]!;
const scopedToHedgebox = server.makeKey({ scopes: ['*'], organizations: [hedgebox] });

describe('a key scoped to one organization', () => {
  it('lists only that organization', async () => {
    const res = await server.get('/api/organizations/', { key: scopedToHedgebox });
    expect(res.body.count).toBe(1);
    expect(res.body.results.map((o: { id: string }) => o.id)).toEqual([hedgebox]);
  });

  it('gets 403 on the other organization, which exists', async () => {
    for (const [method, json] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await server.request(method, `/api/organizations/${northwind}/`, { key: scopedToHedgebox, json });
      expect(res.status, method).toBe(403);
      expect(res.body).toEqual({
        type: 'authentication_error',
        code: 'permission_denied',
        detail: 'You do not have permission to perform this action.',
        attr: null,
      });
    }
    expect((await server.get(`/api/organizations/${hedgebox}/`, { key: scopedToHedgebox })).status).toBe(200);
  });

  it("sees only that organization's projects; 403 on the others", async () => {
    const list = await server.get('/api/projects/', { key: scopedToHedgebox });
    expect(list.body.results.map((p: { organization: string }) => p.organization)).toEqual([hedgebox, hedgebox]);
    const nwProject = (await server.get(`/api/organizations/${northwind}/`)).body.teams[0].id;
    expect((await server.get(`/api/projects/${nwProject}/`, { key: scopedToHedgebox })).status).toBe(403);
  });

  it('while an unscoped key of the same user reaches both', async () => {
    const res = await server.get('/api/organizations/');
    expect(res.body.results.map((o: { id: string }) => o.id).sort()).toEqual([hedgebox, northwind].sort());
  });

  it('still cannot reach the organization after that organization is deleted and others remain', async () => {
    const onlyDoomed = (await server.request('POST', '/api/organizations/', { json: { name: 'Short lived' } })).body.id;
    const key = server.makeKey({ scopes: ['*'], organizations: [onlyDoomed] });
    expect((await server.request('DELETE', `/api/organizations/${onlyDoomed}/`, { key })).status).toBe(204);
    const res = await server.get('/api/organizations/', { key });
    expect(res.body.count).toBe(0);
    expect((await server.get(`/api/organizations/${hedgebox}/`, { key })).status).toBe(403);
  });
});
