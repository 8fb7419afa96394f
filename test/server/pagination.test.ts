import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonText } from '../../server/http/json-text.ts';
import { pageHead, pageJson } from '../../server/http/pagination.ts';
import { createTestServer } from './helpers.ts';

const server = createTestServer();
afterAll(() => server.close());
beforeAll(async () => {
  // 2 seeded + 5 = 7 organizations.
  for (let i = 1; i <= 5; i++) {
    expect((await server.request('POST', '/api/organizations/', { json: { name: `Paged ${i}` } })).status).toBe(201);
  }
});

describe('pagination', () => {
  it('defaults to 100 per page with null links when everything fits', async () => {
    const res = await server.get('/api/organizations/');
    expect(res.body).toMatchObject({ count: 7, next: null, previous: null });
    expect(res.body.results).toHaveLength(7);
  });

  it('gives absolute next/previous links with limit/offset rewritten, null at the ends', async () => {
    const first = await server.get('/api/organizations/?limit=3&foo=bar');
    expect(first.body.count).toBe(7);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe('http://localhost/api/organizations/?limit=3&foo=bar&offset=3');

    const second = await server.get(first.body.next);
    expect(second.body.results.map((o: { name: string }) => o.name)).toEqual(['Paged 2', 'Paged 3', 'Paged 4']);
    expect(second.body.previous).toBe('http://localhost/api/organizations/?limit=3&foo=bar');
    expect(second.body.next).toBe('http://localhost/api/organizations/?limit=3&foo=bar&offset=6');

    const last = await server.get(second.body.next);
    expect(last.body.results).toHaveLength(1);
    expect(last.body.next).toBeNull();
    expect(last.body.previous).toBe('http://localhost/api/organizations/?limit=3&foo=bar&offset=3');
  });

  it('pages are disjoint and cover the whole list', async () => {
    const all = (await server.get('/api/organizations/')).body.results.map((o: { id: string }) => o.id);
    const seen: string[] = [];
    let url: string | null = '/api/organizations/?limit=2';
    while (url) {
      const res: { body: { next: string | null; results: { id: string }[] } } = await server.get(url);
      seen.push(...res.body.results.map((o) => o.id));
      url = res.body.next;
    }
    expect(seen).toEqual(all);
  });

  it('clamps limit at 1000', async () => {
    const res = await server.get('/api/organizations/?limit=5000&offset=6');
    expect(res.status).toBe(200);
    expect(res.body.previous).toBe('http://localhost/api/organizations/?limit=1000');
  });

  it('an offset past the end gives an empty page', async () => {
    const res = await server.get('/api/organizations/?offset=50');
    expect(res.body).toMatchObject({ count: 7, next: null, results: [] });
  });

  it.each([
    ['limit=-1', 'limit', 'min_value'],
    ['limit=abc', 'limit', 'invalid_input'],
    ['limit=2.5', 'limit', 'invalid_input'],
    ['offset=-3', 'offset', 'min_value'],
    ['offset=1.5', 'offset', 'invalid_input'],
  ])('400 for %s', async (query, attr, code) => {
    const res = await server.get(`/api/organizations/?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr, code });
  });

  it('applies to projects too', async () => {
    const res = await server.get('/api/projects/?limit=2');
    expect(res.body.count).toBe(8);
    expect(res.body.results).toHaveLength(2);
    expect(res.body.next).toBe('http://localhost/api/projects/?limit=2&offset=2');
    expect((await server.get('/api/projects/?offset=-1')).body.attr).toBe('offset');
  });
});

describe('pageJson', () => {
  it('is the text JSON.stringify gives for the whole Page, links with characters to escape included', () => {
    const results = [
      { id: 'a', name: 'Quote " and \\ and é' },
      { id: 'b', name: null },
    ];
    for (const window of [
      { limit: 1, offset: 0 },
      { limit: 1, offset: 1 },
      { limit: 5, offset: 0 },
    ]) {
      const head = pageHead('http://h/api/x/?search="a b"&limit=1', window, 2);
      expect(pageJson(head, JsonText.of(results)).text).toBe(JSON.stringify({ ...head, results }));
    }
  });
});
