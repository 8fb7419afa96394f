import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody } from '../../src/contract/index.ts';
import { InputError } from '../domain-errors.ts';

/** An error with the API's exact body (docs/api.md's error table); thrown anywhere, rendered by the app. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;
  readonly headers: Record<string, string>;

  constructor(status: number, body: ApiErrorBody, headers: Record<string, string> = {}) {
    super(body.detail);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  toResponse(): Response {
    return Response.json(this.body, { status: this.status, headers: this.headers });
  }

  /** The response built through the context, so it carries the headers set by middleware. */
  render(c: Context): Response {
    return c.json(this.body, this.status as ContentfulStatusCode, this.headers);
  }
}

const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer' };

export const notAuthenticated = () =>
  new ApiError(
    401,
    {
      type: 'authentication_error',
      code: 'not_authenticated',
      detail: 'Authentication credentials were not provided.',
      attr: null,
    },
    WWW_AUTHENTICATE,
  );

export const authenticationFailed = () =>
  new ApiError(
    401,
    {
      type: 'authentication_error',
      code: 'authentication_failed',
      detail: 'Personal API key found in request Authorization header is invalid.',
      attr: null,
    },
    WWW_AUTHENTICATE,
  );

export const permissionDenied = (detail = 'You do not have permission to perform this action.') =>
  new ApiError(403, { type: 'authentication_error', code: 'permission_denied', detail, attr: null });

export const missingScope = (scope: string) => permissionDenied(`API key missing required scope '${scope}'`);

export const keyAccessNotSupported = () => permissionDenied('This action does not support personal API key access');

export const notFound = () =>
  new ApiError(404, { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });

export const validationError = (code: string, detail: string, attr: string | null) =>
  new ApiError(400, { type: 'validation_error', code, detail, attr });

/**
 * The API's error for what a handler threw: an ApiError as it is, a domain error
 * (server/domain-errors.ts) as its status and body; null for anything else (a 500).
 */
export function apiErrorOf(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof InputError) return validationError(error.code, error.message, error.attr);
  return null;
}

export const parseError = (detail: string) => validationError('parse_error', detail, null);

/** 413; the connection is closed after it, so a client still sending the body stops. */
export const payloadTooLarge = () =>
  new ApiError(
    413,
    { type: 'invalid_request', code: 'request_too_large', detail: 'Request body is too large.', attr: null },
    { Connection: 'close' },
  );

/** An analytics query stopped at its time budget: 400, so clients do not retry the same work. */
export const queryTimeout = (budgetMs: number) =>
  new ApiError(400, {
    type: 'validation_error',
    code: 'query_timeout',
    attr: null,
    detail: `This query took longer than ${Math.round(budgetMs / 1000)} seconds and was stopped. Try a shorter date range, fewer series or steps, or a smaller breakdown limit.`,
  });

/** 429: too many failed attempts from one address (docs/limits.md); `Retry-After` in seconds. */
export const throttled = (retryAfterSeconds: number) =>
  new ApiError(
    429,
    {
      type: 'throttled_error',
      code: 'throttled',
      attr: null,
      detail: `Request was throttled. Expected available in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );

export const serverError = () =>
  new ApiError(500, { type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null });

export const badGateway = () =>
  new ApiError(502, {
    type: 'server_error',
    code: 'bad_gateway',
    detail: 'The upstream server could not be reached.',
    attr: null,
  });
