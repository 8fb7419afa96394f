import { describe, expect, it } from 'vitest';
import { insightEndpoints } from '@/contract/insights';
import { organizationEndpoints } from '@/contract/organizations';
import { apiRequest } from './api-client';

/**
 * The request's parts are typed by its endpoint. Each `@ts-expect-error` below is a request the
 * server would refuse: `npm test`'s type-check fails if the compiler stops refusing it.
 */
const never = false as boolean;

describe('apiRequest is typed by its endpoint', () => {
  it('refuses path parameters, query keys and bodies the endpoint does not take (at compile time)', () => {
    if (never) {
      // @ts-expect-error: the insight's path takes `id`, not `insight_id`.
      void apiRequest(insightEndpoints.update, { params: { project_id: 1, insight_id: 2 } });
      // @ts-expect-error: a name is text.
      void apiRequest(insightEndpoints.update, { params: { project_id: 1, id: 2 }, body: { name: 3 } });
      // @ts-expect-error: the organizations list has no `colour` filter.
      void apiRequest(organizationEndpoints.list, { query: { colour: 'red' } });
      // What it does take compiles.
      void apiRequest(insightEndpoints.update, {
        params: { project_id: 1, id: 2 },
        body: { name: 'Signups', favorited: true },
      });
    }
    expect(never).toBe(false);
  });
});
