import type { z } from '@/contract/z';
import { apiErrorBodySchema, type Endpoint } from '@/contract/common';
import { getCredentials, type Credentials } from './auth-store';
import { nextTask } from './next-task';

/** Every failure of an API call, whatever its cause, is one of these. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly detail: string;
  readonly attr: string | null;
  /** The whole error body (fields beyond the standard four, e.g. a bulk request's per-item `errors`). */
  readonly body: Record<string, unknown>;

  constructor(init: {
    status: number;
    type: string;
    code: string;
    detail: string;
    attr?: string | null;
    body?: Record<string, unknown>;
  }) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.detail = init.detail;
    this.attr = init.attr ?? null;
    this.body = init.body ?? {};
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  get isServerError(): boolean {
    return this.status >= 500;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type EndpointResponse<E extends Endpoint> = E['response'] extends z.ZodMiniType ? z.output<E['response']> : void;

/** What a part of a request takes: the input of the endpoint's schema for it, else nothing. */
type InputOf<S> = S extends z.ZodMiniType ? z.input<S> : never;
/** URL parts are text: a path or query parameter takes any of the schema's keys, as a string or number. */
type UrlParts<S, V> = S extends z.ZodMiniType ? { [K in keyof z.input<S>]: V } : never;

/**
 * A request's parts, typed by its endpoint when one is given: the path parameters and query keys
 * its schemas name and the body they take, so a caller cannot send what the server refuses.
 */
export interface RequestOptions<E extends Endpoint = Endpoint> {
  params?: Endpoint extends E ? Record<string, string | number> : UrlParts<E['params'], string | number>;
  query?: Endpoint extends E
    ? Record<string, string | number | boolean | undefined>
    : Partial<UrlParts<E['query'], string | number | boolean | undefined>>;
  body?: Endpoint extends E ? unknown : InputOf<E['body']>;
  signal?: AbortSignal;
  /** Use these instead of the stored ones (signing in validates a key before storing it). */
  credentials?: Credentials;
}

/** Builds `/api/x/1/` from `/api/x/:id/` and params, always with a trailing slash. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  const filled = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
  return filled.endsWith('/') ? filled : `${filled}/`;
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions['query']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const qs = search.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl || 'this address';
  }
}

const notAnApi = (status: number, baseUrl: string) =>
  new ApiError({
    status,
    type: 'invalid_response',
    code: 'not_an_api',
    detail: `The server at ${hostOf(baseUrl)} did not answer like the analytics API. Check the server URL.`,
  });

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  return JSON.parse(text) as unknown;
}

async function toApiError(response: Response, baseUrl: string): Promise<ApiError> {
  let body: unknown;
  try {
    body = await readJson(response);
  } catch {
    body = undefined;
  }
  const parsed = apiErrorBodySchema.safeParse(body);
  if (parsed.success) {
    return new ApiError({ status: response.status, ...parsed.data, body: parsed.data });
  }
  if (response.status >= 500) {
    return new ApiError({
      status: response.status,
      type: 'server_error',
      code: 'error',
      detail: 'A server error occurred.',
    });
  }
  if (response.status === 401) {
    return new ApiError({
      status: 401,
      type: 'authentication_error',
      code: 'authentication_failed',
      detail: 'The API key was not accepted.',
    });
  }
  if (response.status === 404) {
    // A 404 without the API's error body: most likely not the API at all.
    return notAnApi(404, baseUrl);
  }
  return new ApiError({
    status: response.status,
    type: 'http_error',
    code: `http_${response.status}`,
    detail: `The request failed (HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}).`,
  });
}

/**
 * Sends one request of the contract's `endpoint` (base URL, bearer key, trailing slash, JSON
 * body) and answers its successful Response unread; any failure is an ApiError. apiRequest reads
 * JSON with it; a file download (`format=csv`) reads the body itself.
 */
export async function apiFetch<E extends Endpoint>(
  endpoint: E,
  options: RequestOptions<E> = {},
  accept = 'application/json',
): Promise<{ response: Response; baseUrl: string }> {
  const credentials = options.credentials ?? getCredentials();
  const baseUrl = credentials?.baseUrl ?? '';
  const url = buildUrl(
    baseUrl,
    buildPath(endpoint.path, options.params as Record<string, string | number> | undefined),
    options.query as RequestOptions['query'],
  );
  const headers: Record<string, string> = { Accept: accept };
  if (credentials) headers.Authorization = `Bearer ${credentials.key}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method: endpoint.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({
      status: 0,
      type: 'network_error',
      code: 'network_error',
      detail: `Can't reach the server at ${hostOf(baseUrl)}. Check the address and your connection.`,
    });
  }

  if (!response.ok) throw await toApiError(response, baseUrl);
  return { response, baseUrl };
}

/**
 * Calls one endpoint of the contract: base URL, bearer key, trailing slash, JSON body,
 * and the response parsed with the endpoint's schema. Every failure is an ApiError.
 */
export async function apiRequest<E extends Endpoint>(
  endpoint: E,
  options: RequestOptions<E> = {},
): Promise<EndpointResponse<E>> {
  const { response, baseUrl } = await apiFetch(endpoint, options);

  let data: unknown;
  try {
    data = await readJson(response);
  } catch {
    throw notAnApi(response.status, baseUrl);
  }
  if (!endpoint.response) return undefined as EndpointResponse<E>;
  const parsed = endpoint.response.safeParse(data);
  if (!parsed.success) {
    if (data === null || typeof data !== 'object') throw notAnApi(response.status, baseUrl);
    throw new ApiError({
      status: response.status,
      type: 'invalid_response',
      code: 'unexpected_shape',
      detail: `The server's answer to ${endpoint.method} ${endpoint.path} did not have the expected shape.`,
    });
  }
  // What the answer feeds (the cache, the router, the render) runs in the next task: reading and
  // checking a large answer and drawing it are not one long task on a phone.
  await new Promise<void>((resolve) => nextTask(resolve));
  return parsed.data as EndpointResponse<E>;
}
