import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

export const MAX_QUERY_RETRIES = 3;

/** Only network failures and 5xx are worth retrying; a 4xx will say the same thing again. */
export function isRetryableError(error: unknown): boolean {
  return isApiError(error) && (error.status === 0 || error.status >= 500);
}

export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_QUERY_RETRIES && isRetryableError(error);
}

/** 1 s, 2 s, 4 s, … capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { skipAuthRedirect?: boolean };
    mutationMeta: { skipAuthRedirect?: boolean };
  }
}

export interface QueryClientOptions {
  /** Called on any 401 from a query or mutation (the key was revoked or has expired). */
  onUnauthorized: () => void;
}

export function createQueryClient({ onUnauthorized }: QueryClientOptions): QueryClient {
  const handle = (error: unknown, meta: { skipAuthRedirect?: boolean } | undefined) => {
    if (isApiError(error) && error.status === 401 && !meta?.skipAuthRedirect) onUnauthorized();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => handle(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _vars, _ctx, mutation) => handle(error, mutation.meta) }),
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        retryDelay,
        staleTime: 10_000,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
