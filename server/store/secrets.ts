import { createHash, randomBytes, randomUUID } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random base62 text (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const newUuid = (): string => randomUUID();

/** A personal API key: `phx_` + 40 base62 characters. Shown once, stored only as a hash. */
export const generatePersonalApiKey = (): string => `phx_${randomBase62(40)}`;

/** A project's public ingestion token: `phc_` + 40 base62 characters. */
export const generateProjectToken = (): string => `phc_${randomBase62(40)}`;

/** SHA-256 of the key, hex. The only form of a key the store keeps. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** `phx_…abcd`: enough to recognise a key, useless to use it. */
export function maskKey(key: string): string {
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}
