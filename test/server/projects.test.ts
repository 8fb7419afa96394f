import { afterAll, describe, expect, it } from 'vitest';
import { pageSchema, projectSchema } from '../../src/contract/index.ts';
import { createTestServer, HEDGEBOX, NORTHWIND } from './helpers.ts';

const server = createTestServer();
afterAll(() => server.close());

describe('projects', () => {
  it('GET /api/projects/ lists the projects of reachable organizations', async () => {
    const res = await server.get('/api/projects/');
    const page = pageSchema(projectSchema).parse(res.body);
    expect(page.results.map((p) => p.name)).toEqual(['Hedgebox Web', 'Hedgebox Mobile', 'Northwind Storefront']);
    expect(page.results[1]).toMatchObject({
      organization: server.orgIds[HEDGEBOX],
      timezone: 'Europe/London',
      week_start_day: 1,
    });
    for (const p of page.results) {
      expect(p.api_token).toMatch(/^phc_/);
      expect(Number.isInteger(p.id)).toBe(true);
    }
  });

  it('GET /api/projects/:id/ returns one project', async () => {
    const res = await server.get('/api/projects/3/');
    expect(res.status).toBe(200);
    expect(projectSchema.parse(res.body)).toMatchObject({
      id: 3,
      name: 'Northwind Storefront',
      organization: server.orgIds[NORTHWIND],
    });
  });

  it('404 for a project that does not exist or an id that is not an integer', async () => {
    expect((await server.get('/api/projects/999/')).status).toBe(404);
    expect((await server.get('/api/projects/abc/')).status).toBe(404);
  });

  it('403 for a project of an organization the user is not in', async () => {
    const key = server.makeKey({ scopes: ['*'], userEmail: 'jonas@northwind.example' });
    const res = await server.get('/api/projects/1/', { key });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('You do not have permission to perform this action.');
    expect((await server.get('/api/projects/', { key })).body.count).toBe(1);
  });

  it('Organization.teams lists the same projects as summaries', async () => {
    const org = (await server.get(`/api/organizations/${server.orgIds[HEDGEBOX]}/`)).body;
    expect(org.teams.map((t: { id: number; uuid: string; name: string }) => [t.id, t.name])).toEqual([
      [1, 'Hedgebox Web'],
      [2, 'Hedgebox Mobile'],
    ]);
  });
});
