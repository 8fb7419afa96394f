import { scopesAllow, type EndpointAccess } from '../../src/contract/index.ts';
import type { ApiKeyRow } from '../store/api-keys.ts';
import type { OrganizationScope } from '../store/organizations.ts';
import { hashKey } from '../store/secrets.ts';
import type { Store } from '../store/store.ts';
import { authenticationFailed, keyAccessNotSupported, missingScope, notAuthenticated } from './errors.ts';

/** Who is calling: the key, its user, and which organizations it may reach. */
export interface AuthContext {
  key: ApiKeyRow;
  userId: number;
  /** null = every organization the user belongs to. */
  organizationScope: OrganizationScope;
  /** Whether the key's organization scoping lets it reach `organizationId` (membership aside). */
  keyReaches(organizationId: string): boolean;
}

const KEY_SHAPE = /^phx_[A-Za-z0-9]{1,200}$/;
/** last_used_at is written at most this often per key: not a write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves the `Authorization` header to a key or throws the API's 401. */
export function createAuthenticator(store: Store, now: () => Date) {
  return function authenticate(header: string | undefined): AuthContext {
    if (header === undefined || header.trim() === '') throw notAuthenticated();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
    const token = match?.[1];
    if (!token || !KEY_SHAPE.test(token)) throw authenticationFailed();
    const key = store.apiKeys.findByHash(hashKey(token));
    if (!key) throw authenticationFailed();

    const at = now();
    if (key.last_used_at === null || at.getTime() - Date.parse(key.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      key.last_used_at = at.toISOString();
      store.apiKeys.touch(key.id, key.last_used_at);
    }
    const scope = key.scoped_organizations;
    return {
      key,
      userId: key.user_id,
      organizationScope: scope,
      keyReaches: (organizationId) => scope === null || scope.includes(organizationId),
    };
  };
}

/** Throws the API's 403 unless the key may call an endpoint with this access rule. */
export function checkAccess(auth: AuthContext, access: EndpointAccess): void {
  if (access === null) throw keyAccessNotSupported();
  if (access === 'authenticated') return;
  if (!scopesAllow(auth.key.scopes, access)) throw missingScope(access);
}
