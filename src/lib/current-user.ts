import { queryOptions } from '@tanstack/react-query';
import { userEndpoints } from '@/contract/users';
import { apiRequest } from './api-client';

/**
 * The user the key belongs to (`GET /api/users/@me/`): "created by me" filters by its id. Apart
 * from auth.ts so that only the screens that need it load the users contract.
 */
export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['users', '@me'] as const,
    queryFn: ({ signal }) => apiRequest(userEndpoints.me, { signal }),
    staleTime: 5 * 60_000,
  });
