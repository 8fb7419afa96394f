import { afterAll, describe, expect, it } from 'vitest';
import { userSchema } from '../../src/contract/index.ts';
import { DEMO_USER_EMAIL } from '../../server/seed/data.ts';
import { createTestServer } from './helpers.ts';

/** users/@me/: the user the calling key belongs to. */

const server = createTestServer();
afterAll(() => server.close());

describe('GET /api/users/@me/', () => {
  it('answers the demo key with the demo user', async () => {
    const res = await server.get('/api/users/@me/');
    expect(res.status).toBe(200);
    const user = userSchema.parse(res.body);
    expect(user.email).toBe(DEMO_USER_EMAIL);
    expect(user).toMatchObject({
      first_name: 'Demo',
      last_name: 'Admin',
      is_email_verified: true,
      hedgehog_config: null,
    });
    expect(user.id).toBe(server.store.users.getByEmail(DEMO_USER_EMAIL)!.id);
  });

  it("answers another user's key with that user, whatever its scopes", async () => {
    const key = server.makeKey({ scopes: ['batch_export:read'], userEmail: 'priya@hedgebox.example' });
    const res = await server.get('/api/users/@me', { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'priya@hedgebox.example', first_name: 'Priya', last_name: 'Raman' });
    expect(res.body.id).toBe(server.store.users.getByEmail('priya@hedgebox.example')!.id);
  });

  it('is the user insights name as created_by', async () => {
    const me = await server.get('/api/users/@me/');
    const project = server.store.db.prepare('SELECT id FROM projects ORDER BY id LIMIT 1').pluck().get() as number;
    const created = await server.request('POST', `/api/projects/${project}/insights/`, { json: { name: 'mine' } });
    expect(created.status).toBe(201);
    expect(created.body.created_by).toEqual(me.body);
  });

  it('401 without a key, or with an unknown one', async () => {
    const none = await server.get('/api/users/@me/', { key: null });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('not_authenticated');
    expect((await server.get('/api/users/@me/', { key: 'phx_unknown0000' })).status).toBe(401);
  });
});
