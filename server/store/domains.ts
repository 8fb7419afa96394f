import { randomBytes } from 'node:crypto';
import type { Db } from './db.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';

/** A domain's verification challenge: 32 URL-safe random characters (docs/api.md). */
export const newChallenge = () => randomBytes(24).toString('base64url');

export interface DomainRow {
  id: string;
  organization_id: string;
  domain: string;
  verification_challenge: string;
  verified_at: string | null;
  jit_provisioning_enabled: number;
  sso_enforcement: string;
  saml_entity_id: string | null;
  saml_acs_url: string | null;
  saml_x509_cert: string | null;
  created_at: string;
}

/** Verified and pending domains of organizations (a domain name is unique across all). */
export function createDomainsRepository(db: Db) {
  const insert = db.prepare(`INSERT INTO domains (id, organization_id, domain, verification_challenge, verified_at,
      jit_provisioning_enabled, sso_enforcement, saml_entity_id, saml_acs_url, saml_x509_cert, created_at)
    VALUES (@id, @organization_id, @domain, @verification_challenge, @verified_at, @jit_provisioning_enabled,
      @sso_enforcement, @saml_entity_id, @saml_acs_url, @saml_x509_cert, @created_at)`);
  const update =
    db.prepare(`UPDATE domains SET verified_at = @verified_at, jit_provisioning_enabled = @jit_provisioning_enabled,
      sso_enforcement = @sso_enforcement, saml_entity_id = @saml_entity_id, saml_acs_url = @saml_acs_url,
      saml_x509_cert = @saml_x509_cert WHERE id = @id`);
  const list = db.prepare<Record<string, unknown>, DomainRow>(
    `SELECT * FROM domains WHERE organization_id = @organization ORDER BY created_at, id ${LIMIT_OFFSET}`,
  );
  const count = db.prepare<unknown[], number>('SELECT COUNT(*) FROM domains WHERE organization_id = ?').pluck();
  const byId = db.prepare<unknown[], DomainRow>('SELECT * FROM domains WHERE id = ?');
  const byName = db.prepare<unknown[], DomainRow>('SELECT * FROM domains WHERE domain = ?');
  const remove = db.prepare('DELETE FROM domains WHERE id = ?');

  return {
    create(row: DomainRow): DomainRow {
      insert.run(row);
      return row;
    },
    update(row: DomainRow): void {
      update.run(row);
    },
    list(organizationId: string, limit: number, offset: number): DomainRow[] {
      return list.all({ organization: organizationId, limit, offset });
    },
    count(organizationId: string): number {
      return count.get(organizationId)!;
    },
    get(id: string): DomainRow | undefined {
      return byId.get(id);
    },
    byName(domain: string): DomainRow | undefined {
      return byName.get(domain);
    },
    remove(id: string): void {
      remove.run(id);
    },
  };
}
export type DomainsRepository = ReturnType<typeof createDomainsRepository>;
