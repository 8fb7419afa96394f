import {
  endpoints,
  levelChangeRefusal,
  removalRefusal,
  userDisplayName,
  type MemberRuleRefusal,
} from '../../../../src/contract/index.ts';
import type { NewActivity } from '../../../store/activity-log.ts';
import type { MemberRow } from '../../../store/members.ts';
import type { Store } from '../../../store/store.ts';
import { reachableOrganization } from '../../access.ts';
import type { AuthContext } from '../../auth.ts';
import { notFound, permissionDenied, validationError } from '../../errors.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { memberResponse } from './serializers.ts';

export const MEMBERSHIP_SCOPE = 'OrganizationMembership';

const refuse = (refusal: MemberRuleRefusal) =>
  refusal.status === 403 ? permissionDenied(refusal.detail) : validationError('invalid_input', refusal.detail, 'level');

/** An activity entry about a membership (organization-wide: no project). */
export function membershipActivity(
  row: Pick<MemberRow, 'id' | 'organization_id' | 'first_name' | 'last_name' | 'email'>,
  activity: string,
  userId: number | null,
  changes: NewActivity['detail']['changes'] = null,
): NewActivity {
  return {
    organization_id: row.organization_id,
    project_id: null,
    scope: MEMBERSHIP_SCOPE,
    item_id: row.id,
    activity,
    detail: { name: userDisplayName(row), changes },
    user_id: userId,
  };
}

/**
 * `{ORG}/members/`: any member reads the list; level changes and removals follow the level rules
 * of docs/api.md (levelChangeRefusal / removalRefusal, shared with the app). Removing a member
 * deletes the membership, so their keys fail on the organization with the next request.
 */
export function registerMemberRoutes(router: Router, { store, now }: Deps): void {
  const e = endpoints.members;
  const target = (store: Store, auth: AuthContext, organizationId: string, userUuid: string) => {
    const { level } = reachableOrganization(store, auth, organizationId);
    const row = store.members.byUserUuid(organizationId, userUuid);
    if (!row) throw notFound();
    const rule = {
      callerLevel: level,
      isSelf: row.user_id === auth.userId,
      targetLevel: row.level,
      ownerCount: store.members.ownerCount(organizationId),
    };
    return { row, rule };
  };

  router.route(e.list, ({ auth, params, query, url }) => {
    reachableOrganization(store, auth, params.organization_id);
    const search = query.search?.trim() || null;
    return paginate(
      url,
      query,
      () => store.members.count(params.organization_id, search),
      ({ limit, offset }) => store.members.list(params.organization_id, search, limit, offset).map(memberResponse),
    );
  });

  router.route(e.update, ({ auth, params, body }) => {
    const { row, rule } = target(store, auth, params.organization_id, params.user__uuid);
    const refusal = levelChangeRefusal(rule, body.level);
    if (refusal) throw refuse(refusal);
    if (body.level !== row.level) {
      const at = now().toISOString();
      store.transaction(() => {
        store.members.setLevel(row.id, body.level, at);
        store.activityLog.add(
          membershipActivity(row, 'updated', auth.userId, [
            { type: MEMBERSHIP_SCOPE, action: 'changed', field: 'level', before: row.level, after: body.level },
          ]),
          at,
        );
      });
    }
    return memberResponse(store.members.byUserUuid(params.organization_id, params.user__uuid)!);
  });

  router.route(e.destroy, ({ auth, params }) => {
    const { row, rule } = target(store, auth, params.organization_id, params.user__uuid);
    const refusal = removalRefusal(rule);
    if (refusal) throw refuse(refusal);
    const at = now().toISOString();
    store.transaction(() => {
      store.members.remove(row.id);
      store.activityLog.add(membershipActivity(row, 'deleted', auth.userId), at);
    });
  });
}
