import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { readBodyBytes } from './body.ts';
import { parseError, payloadTooLarge } from './errors.ts';

/** Production accepts capture bodies of up to 20 MB; the same limit applies after decompression. */
export const MAX_CAPTURE_BYTES = 20 * 1024 * 1024;

const gunzip = promisify(zlib.gunzip);
const isGzip = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

async function inflate(raw: Buffer): Promise<Buffer> {
  try {
    return await gunzip(raw, { maxOutputLength: MAX_CAPTURE_BYTES });
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw payloadTooLarge();
    throw parseError('The body is not valid gzip data.');
  }
}

/** A `\uD800`–`\uDFFF` escape: the only way JSON text can carry a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD');

/** Lone surrogates in strings and keys become U+FFFD, so every stored text is valid UTF-8. */
function wellFormedReviver(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  if (entries.every(([k]) => wellFormed(k) === k)) return value;
  return Object.fromEntries(entries.map(([k, v]) => [wellFormed(k), v]));
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw parseError('The request body is empty.');
  try {
    // Parsing with a reviver is slower: only text that escapes a surrogate needs it.
    return JSON.parse(text, SURROGATE_ESCAPE.test(text) ? wellFormedReviver : undefined) as unknown;
  } catch (error) {
    throw parseError(`JSON parse error - ${error instanceof Error ? error.message : 'invalid JSON'}`);
  }
}

/** `data=<json or base64 json>` as posthog-js sends it in form-encoded (legacy) requests. */
function formData(text: string): string {
  const data = new URLSearchParams(text).get('data');
  if (data === null) throw parseError('The form body has no "data" field.');
  const trimmed = data.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return trimmed;
  return Buffer.from(trimmed, 'base64').toString('utf8');
}

/**
 * The JSON a capture request carries, however the SDK packed it: plain JSON; gzip (announced
 * by `Content-Encoding: gzip`, `?compression=gzip-js`, or just the gzip magic bytes);
 * base64 (`?compression=base64`); or a form body with a `data` field. Bad bodies are a 400.
 */
export async function readCaptureBody(request: Request, compression: string | null): Promise<unknown> {
  let raw = await readBodyBytes(request, MAX_CAPTURE_BYTES);
  const encoding = (request.headers.get('content-encoding') ?? '').toLowerCase();
  if (encoding.includes('gzip') || compression === 'gzip-js' || compression === 'gzip' || isGzip(raw))
    raw = await inflate(raw);
  let text = raw.toString('utf8');
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) text = formData(text);
  else if (compression === 'base64') text = Buffer.from(text, 'base64').toString('utf8');
  return parseJson(text);
}
