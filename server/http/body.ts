import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../src/contract/json-depth.ts';
import { ApiError, parseError, payloadTooLarge } from './errors.ts';

const incompleteBody = () =>
  new ApiError(400, {
    type: 'invalid_request',
    code: 'incomplete_body',
    detail: 'The request body ended before it was complete.',
    attr: null,
  });

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The request's bytes, read as they stream in and never more than `limit`: past it reading
 * stops (the rest of the stream is cancelled) and the request is a 413, whether or not it
 * announced a `Content-Length`. A body that never ends is cut by the server's request timeout.
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw payloadTooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw incompleteBody(); // the client went away, or the request timeout cut it
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** JSON text → value; 400 for invalid JSON or JSON nested deeper than MAX_JSON_DEPTH. */
export function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw parseError(`JSON parse error - ${error instanceof Error ? error.message : 'invalid JSON'}`);
  }
  if (exceedsJsonDepth(value)) throw parseError(`JSON parse error - nested deeper than ${MAX_JSON_DEPTH} levels.`);
  return value;
}

/** The request's JSON body; an empty body is `{}` (so missing fields report `required`). */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = (await readBodyBytes(request, MAX_BODY_BYTES)).toString('utf8');
  if (text.trim() === '') return {};
  return parseJsonText(text);
}

/** A multipart body may carry a file (a cohort's CSV): up to 6 MB. */
export const MAX_FORM_BYTES = 6 * 1024 * 1024;

/**
 * The body of an endpoint that also takes `multipart/form-data` (a file upload, as the production
 * service's forms send it): the form's fields as text, each file as its text (UTF-8); any other
 * content type is read as JSON.
 */
export async function readFormOrJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) return readJsonBody(request);
  const bytes = await readBodyBytes(request, MAX_FORM_BYTES);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData();
  } catch {
    throw parseError('Multipart form parse error - the body is not a valid form.');
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of form) out[key] = typeof value === 'string' ? value : await value.text();
  return out;
}
