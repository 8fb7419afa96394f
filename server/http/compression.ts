import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { createTextMemo } from './text-memo.ts';

/**
 * Compression of what the server sends: static files as the build pre-compressed them (`.br`,
 * `.gz` beside each text asset: see vite.config.ts), API answers over 1 kB on the fly. The
 * encoding follows the client's `Accept-Encoding` (brotli first, then gzip); a client that asks
 * for none gets plain bytes. Responses that could differ by encoding carry `Vary: Accept-Encoding`.
 */

export type Encoding = 'br' | 'gzip';
export const FILE_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** What this server can encode, in its order of preference. */
const OFFERED: readonly Encoding[] = ['br', 'gzip'];
/** Browsers send one of a few Accept-Encoding headers, on every request: each is read once. */
const chosen = createTextMemo<Encoding | null>();

/** The best encoding the client accepts (q > 0), `br` before `gzip`; null for plain bytes. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  return chosen(acceptEncoding, () => parseAcceptEncoding(acceptEncoding));
}

function parseAcceptEncoding(acceptEncoding: string): Encoding | null {
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name.trim(), weight === undefined ? 1 : Number(weight));
  }
  const star = q.get('*');
  return OFFERED.find((e) => (q.get(e) ?? star ?? 0) > 0) ?? null;
}

/** Adds `Accept-Encoding` to a response's `Vary` unless it is there. */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (vary === '*' || (vary && /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary))) return;
  headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

const COMPRESSIBLE = /^(application\/(json|javascript|xml|[\w.+-]*\+json)|text\/)/i;
export const COMPRESS_THRESHOLD = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Compresses `body` on the thread pool: brotli at a quality cheap enough for every request, gzip at 6. */
export function compressBytes(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
      })
    : gzip(body, { level: 6 });
}

/**
 * API answers (JSON, CSV) of at least 1 kB are compressed for clients that accept it, with the
 * compressed `Content-Length`. Smaller ones, HEAD, and answers already encoded go out as they are.
 */
export const compressResponses = (): MiddlewareHandler => async (c, next) => {
  // Set before the handler runs, like the security headers: the response is built with it.
  c.header('Vary', 'Accept-Encoding');
  const encoding = c.req.method === 'HEAD' ? null : chooseEncoding(c.req.header('Accept-Encoding'));
  await next();
  // A client that takes no encoding costs nothing more: its response is not even looked at
  // (reading a response's headers turns the server's light response into a full one).
  if (!encoding) return;
  const res = c.res;
  // Headers first: an answer the router already encoded (a rendered JsonText) is left as it is,
  // and its body never read (reading `body` turns the server's light response into a full one).
  if (res.headers.has('Content-Encoding') || !COMPRESSIBLE.test(res.headers.get('Content-Type') ?? '')) return;
  // A small answer that says its length (a rendered JsonText, an empty page) is sent as it is,
  // unread: reading it, even asking for its body, makes a full Response, which costs more than
  // the whole cached answer.
  const length = res.headers.get('Content-Length');
  if ((length !== null && Number(length) < COMPRESS_THRESHOLD) || !res.body) return;
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  let out = body;
  if (body.byteLength >= COMPRESS_THRESHOLD) {
    out = new Uint8Array(await compressBytes(body, encoding));
    headers.set('Content-Encoding', encoding);
  }
  headers.set('Content-Length', String(out.byteLength));
  c.res = new Response(out, { status: res.status, statusText: res.statusText, headers });
};
