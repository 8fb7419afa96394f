import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer, HEDGEBOX } from './helpers.ts';

const errors: string[] = [];
const server = createTestServer({ logger: { error: (message, error) => errors.push(`${message} ${String(error)}`) } });
afterAll(() => server.close());

describe("error rows of the API's error table (docs/api.md)", () => {
  it('404 Not found. for an unknown /api path', async () => {
    for (const path of ['/api/nothing/', '/api/organizations/x/y/z/', '/api']) {
      const res = await server.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    }
  });

  it('404 for an organization that does not exist, and for an id that cannot be one', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await server.get(`/api/organizations/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
  });

  it('405 with an empty body for an unknown method on a known path', async () => {
    const id = server.orgIds[HEDGEBOX]!;
    for (const [method, path] of [
      ['PUT', `/api/organizations/${id}/`],
      ['DELETE', '/api/organizations/'],
      ['POST', '/api/projects/1'],
    ]) {
      const res = await server.request(method!, path!);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.text).toBe('');
    }
    const res = await server.request('PUT', '/api/organizations/');
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  it('400 parse_error for a body that is not JSON', async () => {
    const res = await server.request('POST', '/api/organizations/', {
      rawBody: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', code: 'parse_error', attr: null });
    expect(res.body.detail).toMatch(/^JSON parse error/);
  });

  it('400 for a body that is not an object', async () => {
    const res = await server.request('POST', '/api/organizations/', { json: ['Acme'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: 'Invalid data. Expected a dictionary, but got list.',
      attr: null,
    });
  });

  it('500 with the generic body and no stack when the store throws; the error is logged', async () => {
    const original = server.store.organizations.listForUser;
    server.store.organizations.listForUser = () => {
      throw new Error('disk on fire at /secret/path.ts:42');
    };
    try {
      const res = await server.get('/api/organizations/');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null });
      expect(res.text).not.toMatch(/disk on fire|secret|at /);
      expect(errors.join('\n')).toContain('disk on fire');
    } finally {
      server.store.organizations.listForUser = original;
    }
  });

  it('every error body has exactly type, code, detail and attr', async () => {
    const responses = await Promise.all([
      server.get('/api/organizations/', { key: null }),
      server.get('/api/organizations/', { key: 'phx_nope' }),
      server.get('/api/organizations/', { key: server.makeKey({ scopes: ['plugin:read'] }) }),
      server.get('/api/nothing/'),
      server.get('/api/organizations/?limit=-1'),
    ]);
    for (const res of responses) {
      expect(Object.keys(res.body).sort()).toEqual(['attr', 'code', 'detail', 'type']);
      expect(res.headers.get('content-type')).toContain('application/json');
    }
  });
});
