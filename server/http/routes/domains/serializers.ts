import type { Domain } from '../../../../src/contract/index.ts';
import type { DomainRow } from '../../../store/domains.ts';

export const hasSaml = (row: Pick<DomainRow, 'saml_entity_id' | 'saml_acs_url' | 'saml_x509_cert'>) =>
  Boolean(row.saml_entity_id && row.saml_acs_url && row.saml_x509_cert);

export function domainResponse(row: DomainRow): Domain {
  return {
    id: row.id,
    domain: row.domain,
    is_verified: row.verified_at !== null,
    verified_at: row.verified_at,
    verification_challenge: row.verification_challenge,
    jit_provisioning_enabled: row.jit_provisioning_enabled === 1,
    sso_enforcement: row.sso_enforcement,
    has_saml: hasSaml(row),
    saml_entity_id: row.saml_entity_id,
    saml_acs_url: row.saml_acs_url,
    saml_x509_cert: row.saml_x509_cert,
  };
}
