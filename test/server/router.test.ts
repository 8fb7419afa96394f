import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from '../../src/contract/z';
import { endpoint } from '../../src/contract/index.ts';
import type { AuthContext } from '../../server/http/auth.ts';
import { ApiError, authenticationFailed } from '../../server/http/errors.ts';
import { publicUrlOf } from '../../server/http/public-url.ts';
import { createRouter } from '../../server/http/router.ts';
import type { AppEnv } from '../../server/http/types.ts';

/** The registrar on its own, with endpoints the current API does not have yet (†, nested bodies). */
function harness() {
  const app = new Hono<AppEnv>({ strict: false });
  app.onError((e) => (e instanceof ApiError ? e.toResponse() : new Response('boom', { status: 500 })));
  const auth = (header: string | undefined): AuthContext => {
    if (header !== 'Bearer phx_good') throw authenticationFailed();
    return {
      key: {
        id: 'k',
        user_id: 1,
        label: '',
        mask_value: '',
        scopes: ['batch_export:write'],
        scoped_organizations: null,
        created_at: '',
        last_used_at: null,
      },
      userId: 1,
      organizationScope: null,
      keyReaches: () => true,
    };
  };
  const router = createRouter(app, auth, publicUrlOf(undefined));
  router.route(
    endpoint({
      method: 'GET',
      path: '/api/x/:id/logs/',
      access: null,
      summary: '†',
      status: 200,
      response: z.object({ ok: z.boolean() }),
    }),
    () => ({ ok: true }),
  );
  const nested = z.object({
    destination: z.object({
      type: z.literal('S3'),
      config: z.object({ bucket_name: z.string().check(z.maxLength(5)) }),
    }),
  });
  router.route(
    endpoint({
      method: 'POST',
      path: '/api/x/',
      access: 'batch_export:write',
      summary: 'nested',
      status: 201,
      body: nested,
      response: nested,
    }),
    ({ body }) => body,
  );
  // A list with a query; its handler tries to change what it was given, as a careless one might.
  const seen: unknown[] = [];
  router.route(
    endpoint({
      method: 'GET',
      path: '/api/things/:id/',
      access: 'authenticated',
      summary: 'query',
      status: 200,
      params: z.object({ id: z.coerce.number().check(z.int(), z.positive()) }),
      query: z.object({
        limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1))),
        tags: z.optional(z.string()),
      }),
      response: z.object({ id: z.number(), limit: z.nullable(z.number()), changed: z.boolean() }),
    }),
    ({ params, query }) => {
      let changed = true;
      try {
        (query as { limit?: number }).limit = 999;
      } catch {
        changed = false;
      }
      seen.push(query);
      return { id: params.id, limit: query.limit ?? null, changed };
    },
  );
  const call = (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { Authorization: 'Bearer phx_good' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { call, seen };
}

describe('route registrar', () => {
  it('403 for † endpoints, which do not support personal API keys', async () => {
    const res = await harness().call('GET', '/api/x/1/logs/');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      type: 'authentication_error',
      code: 'permission_denied',
      detail: 'This action does not support personal API key access',
      attr: null,
    });
  });

  it('reports nested body fields with attr joined by __', async () => {
    const { call } = harness();
    let res = await call('POST', '/api/x/', { destination: { type: 'S3', config: {} } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'validation_error',
      code: 'required',
      detail: 'This field is required.',
      attr: 'destination__config__bucket_name',
    });
    res = await call('POST', '/api/x/', { destination: { type: 'S3', config: { bucket_name: 'far too long' } } });
    expect(await res.json()).toMatchObject({ code: 'max_length', attr: 'destination__config__bucket_name' });
    res = await call('POST', '/api/x/', { destination: { type: 'S3', config: { bucket_name: 3 } } });
    expect(await res.json()).toMatchObject({
      code: 'invalid_input',
      detail: 'Not a valid string.',
      attr: 'destination__config__bucket_name',
    });
  });

  it('passes the parsed body to the handler and answers with the endpoint status', async () => {
    const res = await harness().call('POST', '/api/x', {
      destination: { type: 'S3', config: { bucket_name: 'b' } },
      extra: 1,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ destination: { type: 'S3', config: { bucket_name: 'b' } } });
  });

  it('parses a path and a query string once: the same text gives the same values, which no handler can change', async () => {
    const { call, seen } = harness();
    for (let i = 0; i < 3; i++) {
      const res = await call('GET', '/api/things/7/?limit=5');
      expect(await res.json()).toEqual({ id: 7, limit: 5, changed: false });
    }
    expect(await (await call('GET', '/api/things/8/?limit=6')).json()).toEqual({ id: 8, limit: 6, changed: false });
    expect(await (await call('GET', '/api/things/7/')).json()).toEqual({ id: 7, limit: null, changed: false });
    expect(seen[0]).toBe(seen[1]);
    expect(seen[3]).not.toBe(seen[0]);
  });

  it('answers a bad query or path the same way every time (a failed parse is not kept)', async () => {
    const { call } = harness();
    for (let i = 0; i < 2; i++) {
      const res = await call('GET', '/api/things/7/?limit=0');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ attr: 'limit' });
      expect((await call('GET', '/api/things/nope/')).status).toBe(404);
    }
  });
});
