import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient, retryDelay, shouldRetryQuery } from './query-client';

const error = (status: number) => new ApiError({ status, type: 't', code: 'c', detail: 'd' });

describe('query retry policy', () => {
  it('retries network errors and 5xx up to 3 times', () => {
    expect(shouldRetryQuery(0, error(0))).toBe(true);
    expect(shouldRetryQuery(2, error(503))).toBe(true);
    expect(shouldRetryQuery(3, error(500))).toBe(false);
  });

  it('never retries a 4xx or an unknown error', () => {
    for (const status of [400, 401, 403, 404, 405, 429]) expect(shouldRetryQuery(0, error(status))).toBe(false);
    expect(shouldRetryQuery(0, new Error('boom'))).toBe(false);
  });

  it('backs off exponentially, capped', () => {
    expect([0, 1, 2].map(retryDelay)).toEqual([1000, 2000, 4000]);
    expect(retryDelay(10)).toBe(30_000);
  });
});

describe('meta.invalidates', () => {
  it('invalidates the declared keys (as prefixes) once the mutation succeeds, and nothing else', async () => {
    const client = createQueryClient({ onUnauthorized: () => {} });
    client.setQueryData(['organizations', 'o1', 'detail'], { name: 'Old' });
    client.setQueryData(['organizations', 'o1', 'batch-exports', 'list', { limit: 20, offset: 0 }], { count: 0 });
    client.setQueryData(['organizations', 'list', { limit: 20, offset: 0 }], { count: 1 });
    const mutation = client.getMutationCache().build(client, {
      mutationFn: async () => 'done',
      meta: {
        invalidates: [
          ['organizations', 'o1', 'detail'],
          ['organizations', 'list'],
        ],
      },
    });
    await mutation.execute(undefined);
    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(invalidated(['organizations', 'o1', 'detail'])).toBe(true);
    expect(invalidated(['organizations', 'list', { limit: 20, offset: 0 }])).toBe(true);
    expect(invalidated(['organizations', 'o1', 'batch-exports', 'list', { limit: 20, offset: 0 }])).toBe(false);
  });

  it('invalidates nothing when the mutation fails', async () => {
    const client = createQueryClient({ onUnauthorized: () => {} });
    client.setQueryData(['organizations', 'o1', 'detail'], { name: 'Old' });
    const mutation = client.getMutationCache().build(client, {
      mutationFn: async () => {
        throw new Error('refused');
      },
      meta: { invalidates: [['organizations', 'o1', 'detail']] },
    });
    await expect(mutation.execute(undefined)).rejects.toThrow('refused');
    expect(client.getQueryState(['organizations', 'o1', 'detail'])?.isInvalidated).toBe(false);
  });
});
