import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encryption at rest for what the store must be able to read back (batch-export destination
 * configs with their passwords and tokens): AES-256-GCM, a random IV per value. The key is
 * `SECRET_KEY` (any text, hashed to 32 bytes) or, without it, 32 random bytes in
 * `<dataDir>/secret-key` (mode 0600) made on first use. An in-memory store gets a key of its own.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  /** Opens a sealed value; a value stored before encryption (no prefix) is returned as is. */
  open(stored: string): string;
}

const PREFIX = 'enc:v1:';
export const secretKeyFile = (dataDir: string) => path.join(dataDir, 'secret-key');

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

function keyFor(storeFile: string, env: NodeJS.ProcessEnv): Buffer {
  if (env.SECRET_KEY) return createHash('sha256').update(env.SECRET_KEY, 'utf8').digest();
  if (storeFile === ':memory:') return randomBytes(32);
  const file = secretKeyFile(path.dirname(storeFile));
  try {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length === 32) return key;
    throw new Error(`${file} does not hold a 32-byte key: restore it, or remove every stored destination secret`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

export function createSecretBox(storeFile: string, env: NodeJS.ProcessEnv = process.env): SecretBox {
  const key = keyFor(storeFile, env);
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
