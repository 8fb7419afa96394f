import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from '../../src/contract/z';
import { endpoint } from '../../src/contract/index.ts';
import type { AuthContext } from '../../server/http/auth.ts';
import { ApiError, authenticationFailed } from '../../server/http/errors.ts';
import { createRouter } from '../../server/http/router.ts';
import type { AppEnv } from '../../server/http/types.ts';

/** The registrar on its own, with endpoints the current API does not have yet (†, nested bodies). */
function harness() {
  const app = new Hono<AppEnv>({ strict: false });
  app.onError((e) => (e instanceof ApiError ? e.toResponse() : new Response('boom', { status: 500 })));
  const auth = (header: string | undefined): AuthContext => {
    if (header !== 'Bearer phx_good') throw authenticationFailed();
    return { key: { id: 'k', user_id: 1, label: '', mask_value: '', scopes: ['batch_export:write'], scoped_organizations: null, created_at: '', last_used_at: null }, userId: 1, organizationScope: null, keyReaches: () => true };
  };
  const router = createRouter(app, auth);
  router.route(endpoint({
    method: 'GET', path: '/api/x/:id/logs/', access: null, summary: '†', status: 200, response: z.object({ ok: z.boolean() }),
  }), () => ({ ok: true }));
  const nested = z.object({ destination: z.object({ type: z.literal('S3'), config: z.object({ bucket_name: z.string().check(z.maxLength(5)) }) }) });
  router.route(endpoint({
    method: 'POST', path: '/api/x/', access: 'batch_export:write', summary: 'nested', status: 201, body: nested, response: nested,
  }), ({ body }) => body);
  const call = (method: string, path: string, body?: unknown) =>
    app.request(path, { method, headers: { Authorization: 'Bearer phx_good' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { call };
}

describe('route registrar', () => {
  it('403 for † endpoints, which do not support personal API keys', async () => {
    const res = await harness().call('GET', '/api/x/1/logs/');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      type: 'authentication_error', code: 'permission_denied',
      detail: 'This action does not support personal API key access', attr: null,
    });
  });

  it('reports nested body fields with attr joined by __', async () => {
    const { call } = harness();
    let res = await call('POST', '/api/x/', { destination: { type: 'S3', config: {} } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'destination__config__bucket_name',
    });
    res = await call('POST', '/api/x/', { destination: { type: 'S3', config: { bucket_name: 'far too long' } } });
    expect(await res.json()).toMatchObject({ code: 'max_length', attr: 'destination__config__bucket_name' });
    res = await call('POST', '/api/x/', { destination: { type: 'S3', config: { bucket_name: 3 } } });
    expect(await res.json()).toMatchObject({ code: 'invalid_input', detail: 'Not a valid string.', attr: 'destination__config__bucket_name' });
  });

  it('passes the parsed body to the handler and answers with the endpoint status', async () => {
    const res = await harness().call('POST', '/api/x', { destination: { type: 'S3', config: { bucket_name: 'b' } }, extra: 1 });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ destination: { type: 'S3', config: { bucket_name: 'b' } } });
  });
});
