import { endpoints } from '../../../../src/contract/index.ts';
import { LEVEL, reachableOrganization, requireLevel } from '../../access.ts';
import { permissionDenied } from '../../errors.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import { organizationResponse } from './serializers.ts';
import type { Deps } from '../../types.ts';

export const DEFAULT_PROJECT_NAME = 'Default project';

export function registerOrganizationRoutes(router: Router, { store, events, now }: Deps): void {
  const e = endpoints.organizations;
  const view = (id: string, userId: number) => {
    const row = store.organizations.viewForUser(id, userId);
    if (!row) throw new Error(`organization ${id} vanished while viewing it`);
    return organizationResponse(row);
  };

  router.route(e.list, ({ auth, query, url }) =>
    paginate(
      url,
      query,
      () => store.organizations.countForUser(auth.userId, auth.organizationScope),
      ({ limit, offset }) =>
        store.organizations.listForUser(auth.userId, auth.organizationScope, limit, offset).map(organizationResponse),
    ),
  );

  router.route(e.create, ({ auth, body }) => {
    // A key limited to some organizations could not reach the one it creates.
    if (auth.organizationScope !== null) {
      throw permissionDenied('This API key is limited to specific organizations and cannot create new ones.');
    }
    const at = now().toISOString();
    const id = store.transaction(() => {
      const organization = store.organizations.create(body, at);
      store.memberships.add(organization.id, auth.userId, LEVEL.owner, at);
      store.projects.create({ organization_id: organization.id, name: DEFAULT_PROJECT_NAME }, at);
      return organization.id;
    });
    return view(id, auth.userId);
  });

  router.route(e.retrieve, ({ auth, params }) => {
    reachableOrganization(store, auth, params.id);
    return view(params.id, auth.userId);
  });

  router.route(e.update, ({ auth, params, body }) => {
    const { level } = reachableOrganization(store, auth, params.id);
    requireLevel(level, LEVEL.admin);
    if (Object.values(body).some((v) => v !== undefined)) {
      store.organizations.update(params.id, body, now().toISOString());
    }
    return view(params.id, auth.userId);
  });

  // The organization goes with its projects (foreign keys), then their events and persons.
  router.route(e.destroy, async ({ auth, params }) => {
    const { level } = reachableOrganization(store, auth, params.id);
    requireLevel(level, LEVEL.owner);
    const projectIds = store.projects.idsOf(params.id);
    store.organizations.delete(params.id);
    await events.purge(projectIds);
  });
}
