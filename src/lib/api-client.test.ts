import { afterEach, describe, expect, it, vi } from 'vitest';
import { organizationEndpoints } from '@/contract/organizations';
import { apiRequest, ApiError, buildPath } from './api-client';

const credentials = { baseUrl: 'http://api.test', key: 'phx_abc' };

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('buildPath', () => {
  it('fills params and always ends with a slash', () => {
    expect(buildPath('/api/organizations/:id/', { id: 'a b' })).toBe('/api/organizations/a%20b/');
    expect(buildPath('/api/x')).toBe('/api/x/');
  });
});

describe('apiRequest', () => {
  it('sends the bearer key and JSON, and parses the response with the contract', async () => {
    const fetchMock = stubFetch(Response.json({ count: 0, next: null, previous: null, results: [], extra: 1 }));
    const page = await apiRequest(organizationEndpoints.list, { credentials, query: { limit: 20, offset: 0 } });
    expect(page.count).toBe(0);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://api.test/api/organizations/?limit=20&offset=0');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer phx_abc');
  });

  it('turns the error body into an ApiError', async () => {
    stubFetch(
      Response.json(
        { type: 'validation_error', code: 'blank', detail: 'This field may not be blank.', attr: 'name' },
        { status: 400 },
      ),
    );
    const error = await apiRequest(organizationEndpoints.create, { credentials, body: { name: '' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'blank', attr: 'name', detail: 'This field may not be blank.' });
  });

  it('reports a network failure as status 0 with words', async () => {
    stubFetch(new TypeError('fetch failed'));
    const error = await apiRequest(organizationEndpoints.list, { credentials }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, type: 'network_error' });
    expect((error as ApiError).detail).toMatch(/can't reach the server/i);
  });

  it('rejects a body that does not match the contract', async () => {
    stubFetch(Response.json({ hello: 'world' }));
    const error = await apiRequest(organizationEndpoints.list, { credentials }).catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'invalid_response' });
  });

  it('accepts an empty 204', async () => {
    stubFetch(new Response(null, { status: 204 }));
    await expect(
      apiRequest(organizationEndpoints.destroy, { credentials, params: { id: 'x' } }),
    ).resolves.toBeUndefined();
  });
});
