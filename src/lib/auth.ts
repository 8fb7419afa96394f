import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { scopesAllow, type Scope } from '@/contract/common';
import { personalApiKeyEndpoints, type PersonalApiKey } from '@/contract/personal-api-keys';
import { apiRequest } from './api-client';
import { clearCredentials, getCredentials, setCredentials, subscribeCredentials, type Credentials } from './auth-store';
import { missingScopeMessage } from './error-messages';

export { clearCredentials, defaultBaseUrl, getCredentials, setCredentials, type Credentials } from './auth-store';

/** The key making the requests, with its scopes: `GET /api/personal_api_keys/@current/`. */
export const currentKeyQuery = () =>
  queryOptions({
    queryKey: ['personal_api_keys', '@current'] as const,
    queryFn: ({ signal }) => apiRequest(personalApiKeyEndpoints.current, { signal }),
    staleTime: 5 * 60_000,
  });

/** Checks a key against the server without storing it; throws an ApiError when it fails. */
export function validateKey(credentials: Credentials): Promise<PersonalApiKey> {
  return apiRequest(personalApiKeyEndpoints.current, { credentials });
}

export function useCredentials(): Credentials | null {
  return useSyncExternalStore(subscribeCredentials, getCredentials, () => null);
}

/**
 * Keeps the current key (its scopes) fetched while a signed-in page is open: the signed-in layout
 * observes it once, and refreshes it as any query (focus, reconnect) once stale.
 */
export function useKeepCurrentKey(): void {
  const credentials = useCredentials();
  useQuery({ ...currentKeyQuery(), enabled: credentials !== null });
}

/**
 * Whether the current key carries `scope` (`*` and `x:write` count), and if not, why. Read from
 * the query cache, where useKeepCurrentKey keeps it: no query observer per caller (a list asks
 * once per row), only a listener that lets through that one query's changes.
 */
export function useCan(scope: Scope): { allowed: boolean; reason: string | null } {
  const queryClient = useQueryClient();
  // The cache's own hash of the key (with the client's hash function, whatever it is).
  const hash = useMemo(() => queryClient.defaultQueryOptions(currentKeyQuery()).queryHash, [queryClient]);
  const subscribe = useCallback(
    (onChange: () => void) =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.query.queryHash === hash) onChange();
      }),
    [queryClient, hash],
  );
  const read = useCallback(
    () => queryClient.getQueryCache().get<PersonalApiKey>(hash)?.state.data,
    [queryClient, hash],
  );
  const data = useSyncExternalStore(subscribe, read);
  // Until the scopes are known the action stays enabled: the server has the last word (403).
  const allowed = data ? scopesAllow(data.scopes, scope) : true;
  return { allowed, reason: allowed ? null : missingScopeMessage(scope) };
}

/**
 * The reference server prints a sign-in link `http://host/#key=phx_…`. The fragment never reaches
 * the server; this takes the key from it, removes it from the address bar at once and keeps the
 * key for this tab. Returns whether a key was found.
 */
export function consumeKeyFromFragment(): boolean {
  if (typeof window === 'undefined') return false;
  const { hash, pathname, search, origin } = window.location;
  if (!hash.startsWith('#') || !hash.includes('key=')) return false;
  const fragment = new URLSearchParams(hash.slice(1));
  const key = fragment.get('key');
  if (!key) return false;
  fragment.delete('key');
  const rest = fragment.toString();
  window.history.replaceState(window.history.state, '', `${pathname}${search}${rest ? `#${rest}` : ''}`);
  setCredentials({ baseUrl: origin, key }, true);
  return true;
}

/** Keeps only same-app paths as a destination after sign-in (no open redirects). */
export function safeRedirect(redirect: string | undefined): string {
  if (redirect && redirect.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/sign-in')) {
    return redirect;
  }
  return '/organizations';
}

/** Forgets the key everywhere (memory, sessionStorage, query cache) and opens sign-in. */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const router = useRouter();
  return useCallback(async () => {
    clearCredentials();
    await router.navigate({ to: '/sign-in' });
    queryClient.clear();
  }, [queryClient, router]);
}
