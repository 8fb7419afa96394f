/**
 * MSW overrides for what the reference server cannot be made to do: a 5xx, a network failure,
 * a slow answer, an answer that is not the API at all. Everything else comes from the server.
 */
import { delay, http, HttpResponse, type HttpResponseResolver } from 'msw';
import type { Endpoint } from '@/contract/common';
import { mswServer } from './api-server';

/** `/api/organizations/:id/` → a pattern matching any origin. */
export function apiUrl(endpoint: Endpoint): string {
  return `*${endpoint.path}`;
}

type Method = 'get' | 'post' | 'patch' | 'delete';

/** Answers `endpoint` with `resolver` instead of the server (until the test ends). */
export function override(endpoint: Endpoint, resolver: HttpResponseResolver): void {
  mswServer.use(http[endpoint.method.toLowerCase() as Method](apiUrl(endpoint), resolver));
}

/** The API's 5xx body. */
export function serverErrorResponse(status = 500) {
  return HttpResponse.json(
    { type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null },
    { status },
  );
}

/** `endpoint` fails with a 5xx (after `ms`, so an optimistic update is seen first). */
export function failWithServerError(endpoint: Endpoint, { status = 500, ms = 0 } = {}): void {
  override(endpoint, async () => {
    if (ms > 0) await delay(ms);
    return serverErrorResponse(status);
  });
}

/** `endpoint` cannot be reached (fetch rejects). */
export function failWithNetworkError(endpoint: Endpoint): void {
  override(endpoint, () => HttpResponse.error());
}

/** `endpoint` is answered by the server, but only after `ms`. */
export function slowDown(endpoint: Endpoint, ms: number): void {
  override(endpoint, async () => {
    await delay(ms);
    return undefined; // fall through to the server
  });
}
