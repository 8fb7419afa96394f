import { endpoints } from '../../../../src/contract/index.ts';
import { reachableProject } from '../../access.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import { projectResponse } from './serializers.ts';
import type { Deps } from '../../types.ts';

export function registerProjectRoutes(router: Router, { store }: Deps): void {
  const e = endpoints.projects;

  router.route(e.list, ({ auth, query, url }) =>
    paginate(
      url,
      query,
      () => store.projects.countReachable(auth.userId, auth.organizationScope),
      ({ limit, offset }) =>
        store.projects.listReachable(auth.userId, auth.organizationScope, limit, offset).map(projectResponse),
    ),
  );

  router.route(e.retrieve, ({ auth, params }) => projectResponse(reachableProject(store, auth, params.id)));
}
