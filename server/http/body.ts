import { parseError, payloadTooLarge } from './errors.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The request's JSON body; an empty body is `{}` (so missing fields report `required`). */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw payloadTooLarge();
  // Bytes, not characters: a chunked body has no content-length to check first.
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > MAX_BODY_BYTES) throw payloadTooLarge();
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw parseError(`JSON parse error - ${error instanceof Error ? error.message : 'invalid JSON'}`);
  }
}
