import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { parseError, payloadTooLarge } from '../http/errors.ts';

/** Production accepts capture bodies of up to 20 MB; the same limit applies after decompression. */
export const MAX_CAPTURE_BYTES = 20 * 1024 * 1024;

const gunzip = promisify(zlib.gunzip);
const isGzip = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

async function inflate(raw: Buffer): Promise<Buffer> {
  try {
    return await gunzip(raw, { maxOutputLength: MAX_CAPTURE_BYTES });
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw payloadTooLarge();
    throw parseError('The body is not valid gzip data.');
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw parseError('The request body is empty.');
  try {
    return JSON.parse(text) as unknown;
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
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_CAPTURE_BYTES) throw payloadTooLarge();
  let raw: Buffer = Buffer.from(await request.arrayBuffer());
  if (raw.length > MAX_CAPTURE_BYTES) throw payloadTooLarge();
  const encoding = (request.headers.get('content-encoding') ?? '').toLowerCase();
  if (encoding.includes('gzip') || compression === 'gzip-js' || compression === 'gzip' || isGzip(raw)) raw = await inflate(raw);
  let text = raw.toString('utf8');
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) text = formData(text);
  else if (compression === 'base64') text = Buffer.from(text, 'base64').toString('utf8');
  return parseJson(text);
}
