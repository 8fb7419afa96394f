import { scopesAllow, type EndpointAccess } from '../../src/contract/index.ts';
import type { ApiKeyRow } from '../store/api-keys.ts';
import type { OrganizationScope } from '../store/organizations.ts';
import { hashKey } from '../store/secrets.ts';
import type { Store } from '../store/store.ts';
import { authenticationFailed, keyAccessNotSupported, missingScope, notAuthenticated, throttled } from './errors.ts';

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

/**
 * Failed authentications per client address, as a token bucket: `burst` failures at once, then
 * one per `1000 / perSecond` ms. Past that a failure is a 429 with `Retry-After` instead of a
 * 401. Valid keys never touch it (no delay, no count), so a user behind the same address as a
 * guesser is not slowed. Real time, not the app's clock (tests freeze that).
 */
export function createFailureLimiter({ burst = 30, perSecond = 1, maxAddresses = 10_000 } = {}) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    /** Counts a failure from `address`; the seconds to wait when it is over its budget, else null. */
    fail(address: string): number | null {
      const at = performance.now();
      const bucket = buckets.get(address) ?? { tokens: burst, at };
      bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond);
      bucket.at = at;
      buckets.delete(address); // re-insert: the map stays in least-recently-failed order
      if (buckets.size >= maxAddresses) buckets.delete(buckets.keys().next().value!);
      buckets.set(address, bucket);
      if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / perSecond);
      bucket.tokens -= 1;
      return null;
    },
  };
}
export type FailureLimiter = ReturnType<typeof createFailureLimiter>;

/** Resolves the `Authorization` header to a key or throws the API's 401 (429 past the failure budget of `address`). */
export type Authenticate = (header: string | undefined, address?: string) => AuthContext;

export function createAuthenticator(
  store: Store,
  now: () => Date,
  limiter: FailureLimiter = createFailureLimiter(),
): Authenticate {
  return function authenticate(header: string | undefined, address = 'unknown'): AuthContext {
    const failed = (error: () => Error) => {
      const wait = limiter.fail(address);
      return wait === null ? error() : throttled(wait);
    };
    if (header === undefined || header.trim() === '') throw failed(notAuthenticated);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
    const token = match?.[1];
    if (!token || !KEY_SHAPE.test(token)) throw failed(authenticationFailed);
    const key = store.apiKeys.findByHash(hashKey(token));
    if (!key) throw failed(authenticationFailed);

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
