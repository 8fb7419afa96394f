import type { Db } from './db.ts';
import type { ReadCache } from './read-cache.ts';
import { generatePersonalApiKey, hashKey, maskKey, newUuid } from './secrets.ts';

interface ApiKeyDbRow {
  id: string;
  user_id: number;
  label: string;
  mask_value: string;
  scopes: string;
  scoped_organizations: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface ApiKeyRow {
  id: string;
  user_id: number;
  label: string;
  mask_value: string;
  scopes: string[];
  /** null = every organization of the key's user. */
  scoped_organizations: string[] | null;
  created_at: string;
  last_used_at: string | null;
}

export interface NewApiKey {
  user_id: number;
  label: string;
  scopes: readonly string[];
  scoped_organizations?: readonly string[] | null;
  /** The plaintext to store the hash of; generated when absent. */
  key?: string;
}

const COLUMNS = 'id, user_id, label, mask_value, scopes, scoped_organizations, created_at, last_used_at';

function toRow(r: ApiKeyDbRow): ApiKeyRow {
  return {
    ...r,
    scopes: JSON.parse(r.scopes) as string[],
    scoped_organizations: r.scoped_organizations === null ? null : (JSON.parse(r.scoped_organizations) as string[]),
  };
}

export function createApiKeysRepository(db: Db, cache: ReadCache) {
  const insert = db.prepare(`INSERT INTO personal_api_keys
    (id, user_id, label, secure_value, mask_value, scopes, scoped_organizations, created_at)
    VALUES (@id, @user_id, @label, @secure_value, @mask_value, @scopes, @scoped_organizations, @created_at)`);
  const byHash = db.prepare<unknown[], ApiKeyDbRow>(`SELECT ${COLUMNS} FROM personal_api_keys WHERE secure_value = ?`);
  const byId = db.prepare<unknown[], ApiKeyDbRow>(`SELECT ${COLUMNS} FROM personal_api_keys WHERE id = ?`);
  const all = db.prepare<unknown[], ApiKeyDbRow>(`SELECT ${COLUMNS} FROM personal_api_keys ORDER BY created_at, id`);
  const touch = db.prepare('UPDATE personal_api_keys SET last_used_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM personal_api_keys WHERE id = ?');

  return {
    /** Stores a key's hash; returns the row and the plaintext, which is never stored. */
    create(input: NewApiKey, at: string): { row: ApiKeyRow; key: string } {
      const key = input.key ?? generatePersonalApiKey();
      const id = newUuid();
      insert.run({
        id,
        user_id: input.user_id,
        label: input.label,
        created_at: at,
        secure_value: hashKey(key),
        mask_value: maskKey(key),
        scopes: JSON.stringify(input.scopes),
        scoped_organizations: input.scoped_organizations ? JSON.stringify(input.scoped_organizations) : null,
      });
      return { row: toRow(byId.get(id)!), key };
    },
    /** The key whose plaintext hashes to `hash`. */
    findByHash(hash: string): ApiKeyRow | undefined {
      return cache.get(`key:${hash}`, () => {
        const r = byHash.get(hash);
        return r && toRow(r);
      });
    },
    get(id: string): ApiKeyRow | undefined {
      const r = byId.get(id);
      return r && toRow(r);
    },
    list(): ApiKeyRow[] {
      return all.all().map(toRow);
    },
    touch(id: string, at: string): void {
      touch.run(at, id);
    },
    revoke(id: string): boolean {
      return remove.run(id).changes > 0;
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
