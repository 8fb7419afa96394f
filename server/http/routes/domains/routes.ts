import {
  DOMAIN_CHALLENGE_RECORD_PREFIX,
  endpoints,
  MEMBERSHIP_LEVELS,
  type DomainUpdate,
} from '../../../../src/contract/index.ts';
import { lookupTxt } from '../../../dns/txt.ts';
import type { ActivityChange } from '../../../store/activity-log.ts';
import { newChallenge, type DomainRow } from '../../../store/domains.ts';
import { newUuid } from '../../../store/secrets.ts';
import { reachableOrganization } from '../../access.ts';
import type { AuthContext } from '../../auth.ts';
import { notFound, permissionDenied, validationError } from '../../errors.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { domainResponse } from './serializers.ts';

export const DOMAIN_SCOPE = 'OrganizationDomain';

const SETTINGS = [
  'jit_provisioning_enabled',
  'sso_enforcement',
  'saml_entity_id',
  'saml_acs_url',
  'saml_x509_cert',
] as const;

/** The row with `body`'s settings applied; 400 `verification_required` when JIT or SSO is turned on unverified. */
function applySettings(row: DomainRow, body: DomainUpdate): DomainRow {
  const next = { ...row };
  if (body.jit_provisioning_enabled !== undefined)
    next.jit_provisioning_enabled = body.jit_provisioning_enabled ? 1 : 0;
  if (body.sso_enforcement !== undefined) next.sso_enforcement = body.sso_enforcement;
  for (const field of ['saml_entity_id', 'saml_acs_url', 'saml_x509_cert'] as const) {
    if (body[field] !== undefined) next[field] = body[field] || null;
  }
  if (next.verified_at === null) {
    if (next.jit_provisioning_enabled === 1 && row.jit_provisioning_enabled !== 1) {
      throw validationError(
        'verification_required',
        'Verify the domain before enabling automatic provisioning.',
        'jit_provisioning_enabled',
      );
    }
    if (next.sso_enforcement !== '' && next.sso_enforcement !== row.sso_enforcement) {
      throw validationError(
        'verification_required',
        'Verify the domain before enforcing single sign-on.',
        'sso_enforcement',
      );
    }
  }
  return next;
}

const changesOf = (before: DomainRow, after: DomainRow): ActivityChange[] =>
  SETTINGS.filter((f) => before[f] !== after[f]).map((f) => ({
    type: DOMAIN_SCOPE,
    action: 'changed',
    field: f,
    before: before[f],
    after: after[f],
  }));

/**
 * `{ORG}/domains/`: verification looks up the TXT record `_posthog-challenge.<domain>` through
 * the resolver of `DNS_SERVER` (or the system's); a missing or different record answers 200
 * with the domain still unverified.
 */
export function registerDomainRoutes(router: Router, { store, now }: Deps): void {
  const e = endpoints.domains;
  // Domains decide who may sign in and how (SSO, automatic provisioning): admins and owners only.
  const managing = (auth: AuthContext, organizationId: string) => {
    const { level } = reachableOrganization(store, auth, organizationId);
    if (level < MEMBERSHIP_LEVELS.admin)
      throw permissionDenied(
        'Only admins and owners can manage verified domains: your level in this organization is member.',
      );
  };
  const domainOf = (auth: AuthContext, organizationId: string, id: string, write = true) => {
    if (write) managing(auth, organizationId);
    else reachableOrganization(store, auth, organizationId);
    const row = store.domains.get(id);
    if (!row || row.organization_id !== organizationId) throw notFound();
    return row;
  };
  const log = (row: DomainRow, activity: string, userId: number, changes: ActivityChange[] | null, at: string) =>
    store.activityLog.add(
      {
        organization_id: row.organization_id,
        project_id: null,
        scope: DOMAIN_SCOPE,
        item_id: row.id,
        activity,
        detail: { name: row.domain, changes },
        user_id: userId,
      },
      at,
    );

  router.route(e.list, ({ auth, params, query, url }) => {
    reachableOrganization(store, auth, params.organization_id);
    return paginate(
      url,
      query,
      () => store.domains.count(params.organization_id),
      ({ limit, offset }) => store.domains.list(params.organization_id, limit, offset).map(domainResponse),
    );
  });

  router.route(e.create, ({ auth, params, body }) => {
    managing(auth, params.organization_id);
    if (store.domains.byName(body.domain))
      throw validationError('unique', 'A domain with this name already exists.', 'domain');
    const at = now().toISOString();
    const blank: DomainRow = {
      id: newUuid(),
      organization_id: params.organization_id,
      domain: body.domain,
      verification_challenge: newChallenge(),
      verified_at: null,
      jit_provisioning_enabled: 0,
      sso_enforcement: '',
      saml_entity_id: null,
      saml_acs_url: null,
      saml_x509_cert: null,
      created_at: at,
    };
    const row = applySettings(blank, body);
    store.transaction(() => {
      store.domains.create(row);
      log(row, 'created', auth.userId, null, at);
    });
    return domainResponse(row);
  });

  router.route(e.retrieve, ({ auth, params }) =>
    domainResponse(domainOf(auth, params.organization_id, params.id, false)),
  );

  router.route(e.update, ({ auth, params, body }) => {
    const row = domainOf(auth, params.organization_id, params.id);
    const next = applySettings(row, body);
    const changes = changesOf(row, next);
    if (changes.length > 0) {
      store.transaction(() => {
        store.domains.update(next);
        log(next, 'updated', auth.userId, changes, now().toISOString());
      });
    }
    return domainResponse(next);
  });

  router.route(e.destroy, ({ auth, params }) => {
    const row = domainOf(auth, params.organization_id, params.id);
    store.transaction(() => {
      store.domains.remove(row.id);
      log(row, 'deleted', auth.userId, null, now().toISOString());
    });
  });

  router.route(e.verify, async ({ auth, params }) => {
    const row = domainOf(auth, params.organization_id, params.id);
    if (row.verified_at !== null) throw validationError('already_verified', 'This domain is already verified.', null);
    const records = await lookupTxt(`${DOMAIN_CHALLENGE_RECORD_PREFIX}${row.domain}`);
    const current = store.domains.get(row.id);
    if (!current) throw notFound();
    if (!records.includes(current.verification_challenge) || current.verified_at !== null)
      return domainResponse(current);
    const at = now().toISOString();
    const next = { ...current, verified_at: at };
    store.transaction(() => {
      store.domains.update(next);
      log(
        next,
        'verified',
        auth.userId,
        [{ type: DOMAIN_SCOPE, action: 'changed', field: 'verified_at', before: null, after: at }],
        at,
      );
    });
    return domainResponse(next);
  });
}
