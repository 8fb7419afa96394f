import type { Context, Hono } from 'hono';
import type { z } from '../../src/contract/z';
import type { Endpoint } from '../../src/contract/index.ts';
import { checkAccess, type AuthContext } from './auth.ts';
import { readFormOrJsonBody, readJsonBody } from './body.ts';
import { chooseEncoding, COMPRESS_THRESHOLD } from './compression.ts';
import { notFound } from './errors.ts';
import { JsonText } from './json-text.ts';
import { publicRequestUrl, type PublicUrl } from './public-url.ts';
import { clientAddress } from './raw-request.ts';
import type { AppEnv } from './types.ts';
import { createParseMemo, parseOrThrow } from './validation.ts';

type Parsed<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends z.ZodMiniType }
  ? z.output<S>
  : undefined;

export interface HandlerInput<E extends Endpoint> {
  auth: AuthContext;
  params: Parsed<E, 'params'>;
  query: Parsed<E, 'query'>;
  body: Parsed<E, 'body'>;
  /** The request's URL on the server's public origin (pagination links are built from it, never from Host). */
  url: string;
  c: Context<AppEnv>;
}
/**
 * The body an endpoint answers with: the input type of its contract `response` schema (the wire
 * shape the contract parses: fields with a default may be left out, extra fields are allowed),
 * or nothing (`void`) for an endpoint without a response body (204).
 */
export type ResponseBody<E extends Endpoint> = E extends { response: infer S extends z.ZodMiniType }
  ? z.input<S>
  : void;

/**
 * What a handler returns: the response body (sent as JSON with the endpoint's status), the same
 * body already rendered as JSON text, or a Response of its own (headers, another status).
 */
export type HandlerResult<E extends Endpoint> = ResponseBody<E> | JsonText<ResponseBody<E>> | Response;

export type Handler<E extends Endpoint> = (input: HandlerInput<E>) => HandlerResult<E> | Promise<HandlerResult<E>>;
export type PublicHandler<E extends Endpoint> = (
  input: Omit<HandlerInput<E>, 'auth'>,
) => HandlerResult<E> | Promise<HandlerResult<E>>;

export interface RegisteredEndpoint {
  endpoint: Endpoint;
  /** Reachable without a key (e.g. the OpenAPI document). */
  public: boolean;
}

export interface Router {
  /** Registers `endpoint`: auth, access (scope / authenticated / †), validation, then `handler`. */
  route<E extends Endpoint>(endpoint: E, handler: Handler<E>): void;
  publicRoute<E extends Endpoint>(endpoint: E, handler: PublicHandler<E>): void;
  /** Every registered endpoint, in registration order: the OpenAPI document lists exactly these. */
  readonly registered: readonly RegisteredEndpoint[];
  /** Methods registered for the path's pattern; empty when no registered pattern matches it. */
  allowedMethods(path: string): string[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/api/organizations/:id/` → a regex matching it with or without the trailing slash. */
function pathPattern(path: string): RegExp {
  const body = path
    .replace(/\/$/, '')
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : escapeRegExp(seg)))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/**
 * Sends rendered JSON as the compression middleware would (server/http/compression.ts): compressed
 * with the client's preferred encoding from 1 kB on, else plain. The bytes and each compressed
 * variant are made once per JsonText, so a cached answer is neither encoded nor compressed again;
 * the middleware leaves an answer that already has its Content-Encoding, or a Content-Length
 * under the threshold, alone.
 */
async function sendJsonText(
  c: Context<AppEnv>,
  text: JsonText<unknown>,
  status: Exclude<Endpoint['status'], 204>,
): Promise<Response> {
  const bytes = text.bytes;
  const encoding =
    c.req.method === 'HEAD' || bytes.byteLength < COMPRESS_THRESHOLD
      ? null
      : chooseEncoding(c.req.header('Accept-Encoding'));
  if (!encoding)
    return c.body(bytes, status, { 'Content-Type': 'application/json', 'Content-Length': String(bytes.byteLength) });
  const encoded = await text.encoded(encoding);
  return c.body(encoded, status, {
    'Content-Type': 'application/json',
    'Content-Encoding': encoding,
    'Content-Length': String(encoded.byteLength),
  });
}

/**
 * The memo key of `url`'s query: its text from the `?`, or null when the URL is not plain enough
 * to say for sure what the query parser reads (a fragment, an overlong query): such a request is
 * parsed on its own and its parse is not kept.
 */
function queryKey(url: string): string | null {
  if (url.includes('#')) return null;
  const start = url.indexOf('?');
  if (start < 0) return '';
  return url.length - start > MAX_MEMO_KEY ? null : url.slice(start);
}

/** Longest query string (characters) whose parse is kept. */
const MAX_MEMO_KEY = 2048;

export function createRouter(
  app: Hono<AppEnv>,
  authenticate: (header: string | undefined, address: string) => AuthContext,
  publicUrl: PublicUrl,
): Router {
  const registered: RegisteredEndpoint[] = [];
  const patterns: { pattern: RegExp; method: string }[] = [];

  function add(endpoint: Endpoint, isPublic: boolean, run: (input: HandlerInput<Endpoint>) => unknown) {
    registered.push({ endpoint, public: isPublic });
    patterns.push({ pattern: pathPattern(endpoint.path), method: endpoint.method });
    // A path's parameters and a query string parse to the same values every time: kept, frozen.
    const { params: paramsSchema, query: querySchema } = endpoint;
    const parseParams = paramsSchema
      ? createParseMemo((input) => {
          // A path that cannot name a resource names none: 404, not 400.
          const result = paramsSchema.safeParse(input);
          if (!result.success) throw notFound();
          return result.data;
        })
      : null;
    const parseQuery = querySchema ? createParseMemo((input) => parseOrThrow(querySchema, input)) : null;
    // The app is built with `strict: false`: Hono matches the path with its trailing slash removed.
    app.on(endpoint.method, endpoint.path.replace(/(.)\/$/, '$1'), async (c) => {
      const auth = isPublic
        ? (undefined as unknown as AuthContext)
        : authenticate(c.req.header('authorization'), clientAddress(c));
      if (!isPublic) checkAccess(auth, endpoint.access);
      const params = parseParams
        ? parseParams(c.req.path.length > MAX_MEMO_KEY ? null : c.req.path, () => c.req.param())
        : undefined;
      const query = parseQuery ? parseQuery(queryKey(c.req.url), () => c.req.query()) : undefined;
      const body = endpoint.body
        ? parseOrThrow(endpoint.body, await (endpoint.multipart ? readFormOrJsonBody : readJsonBody)(c.req.raw))
        : undefined;
      const result = await run({
        auth,
        params,
        query,
        body,
        url: publicRequestUrl(publicUrl, c.req.url),
        c,
      } as HandlerInput<Endpoint>);
      if (result instanceof Response) return result;
      if (result === undefined || endpoint.status === 204) return c.body(null, endpoint.status);
      if (result instanceof JsonText) return sendJsonText(c, result, endpoint.status);
      return c.json(result, endpoint.status);
    });
  }

  return {
    route: (endpoint, handler) => add(endpoint, false, handler as (input: HandlerInput<Endpoint>) => unknown),
    publicRoute: (endpoint, handler) =>
      add(endpoint, true, handler as unknown as (input: HandlerInput<Endpoint>) => unknown),
    registered,
    allowedMethods: (path) => [...new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method))],
  };
}
