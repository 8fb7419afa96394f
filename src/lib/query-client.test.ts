import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { retryDelay, shouldRetryQuery } from './query-client';

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
