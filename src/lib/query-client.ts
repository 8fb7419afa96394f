import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from './api-client';
import { paletteRoot } from './query-keys';

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

// A type, not an interface: TanStack's Register wants it assignable to Record<string, unknown>.
type MutationMeta = {
  skipAuthRedirect?: boolean;
  /**
   * The query keys (prefixes) this mutation changes: invalidated once it succeeds, before
   * `mutateAsync` resolves. Declared on the mutation instead of repeated in its `onSuccess`.
   */
  invalidates?: readonly QueryKey[];
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { skipAuthRedirect?: boolean };
    mutationMeta: MutationMeta;
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
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => handle(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => handle(error, mutation.meta),
      onSuccess: async (_data, _vars, _ctx, mutation) => {
        const keys = mutation.meta?.invalidates ?? [];
        // The palette's names are marked stale, not fetched: it is rarely open (query-keys.ts).
        void queryClient.invalidateQueries({ queryKey: paletteRoot, refetchType: 'none' });
        await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      },
    }),
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
  return queryClient;
}
