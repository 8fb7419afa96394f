import type { QueryClient } from '@tanstack/react-query';

/** What every route's loader gets besides params: its own module, so routes need not import the router. */
export interface RouterContext {
  queryClient: QueryClient;
}
