import { z } from './z';
import { endpoint, listQuerySchema, nullableTimestampSchema, pageSchema } from './common';
import { blankableText, bool, choice, MESSAGES } from './fields';

/** Lower-case host name (docs/api.md). */
export const DOMAIN_PATTERN = /^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$/;
export const DOMAIN_MAX = 128;
/** `verification_challenge` is 32 URL-safe random characters; the TXT record name is this + domain. */
export const DOMAIN_CHALLENGE_RECORD_PREFIX = '_posthog-challenge.';

/** Login providers SSO can be enforced with ('' = not enforced), as in the production service. */
export const SSO_ENFORCEMENT_VALUES = ['', 'google-oauth2', 'github', 'gitlab', 'saml'] as const;

export const domainSchema = z.looseObject({
  id: z.string(),
  domain: z.string(),
  is_verified: z.boolean(),
  verified_at: nullableTimestampSchema,
  verification_challenge: z.string(),
  jit_provisioning_enabled: z.boolean(),
  sso_enforcement: z.string(),
  has_saml: z.boolean(),
  saml_entity_id: z.nullable(z.string()),
  saml_acs_url: z.nullable(z.string()),
  saml_x509_cert: z.nullable(z.string()),
});
export type Domain = z.infer<typeof domainSchema>;

/** DNS limits a label (the text between two dots) to 63 characters. */
export const DOMAIN_LABEL_MAX = 63;

export const domainNameSchema = z
  .string({
    error: (iss) =>
      iss.input === undefined ? MESSAGES.required : iss.input === null ? MESSAGES.null : MESSAGES.string,
  })
  .check(
    z.minLength(1, { error: MESSAGES.blank }),
    z.maxLength(DOMAIN_MAX, { error: `Ensure this field has no more than ${DOMAIN_MAX} characters.` }),
    z.regex(DOMAIN_PATTERN, {
      error: 'Enter a valid domain in lower case, like example.com (no protocol, path or upper-case letters).',
    }),
    z.refine((name: string) => name.split('.').every((label) => label.length <= DOMAIN_LABEL_MAX), {
      error: `Each part of a domain between dots has at most ${DOMAIN_LABEL_MAX} characters (DNS allows no more).`,
    }),
  );

/** The fields writable on create and update, except the domain itself. */
const domainSettingsShape = {
  jit_provisioning_enabled: z.optional(bool()),
  sso_enforcement: z.optional(choice(SSO_ENFORCEMENT_VALUES)),
  saml_entity_id: z.optional(z.nullable(blankableText(512))),
  saml_acs_url: z.optional(z.nullable(blankableText(512))),
  saml_x509_cert: z.optional(z.nullable(blankableText(4096))),
};

/** POST `{ORG}/domains/`. */
export const domainCreateSchema = z.object({ domain: domainNameSchema, ...domainSettingsShape });
export type DomainCreate = z.infer<typeof domainCreateSchema>;

/** PATCH `{ORG}/domains/:id/`: the domain is immutable after create, so it is not accepted (stripped). */
export const domainUpdateSchema = z.object(domainSettingsShape);
export type DomainUpdate = z.infer<typeof domainUpdateSchema>;

export const domainParams = z.object({ organization_id: z.string(), id: z.string() });
const orgParams = z.object({ organization_id: z.string() });

const base = '/api/organizations/:organization_id/domains/';

export const domainEndpoints = {
  list: endpoint({
    method: 'GET',
    path: base,
    access: 'organization:read',
    summary: 'List verified and pending domains',
    params: orgParams,
    query: listQuerySchema,
    status: 200,
    response: pageSchema(domainSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: base,
    access: 'organization:write',
    summary: 'Add a domain',
    params: orgParams,
    body: domainCreateSchema,
    status: 201,
    response: domainSchema,
  }),
  retrieve: endpoint({
    method: 'GET',
    path: `${base}:id/`,
    access: 'organization:read',
    summary: 'Retrieve a domain',
    params: domainParams,
    status: 200,
    response: domainSchema,
  }),
  update: endpoint({
    method: 'PATCH',
    path: `${base}:id/`,
    access: 'organization:write',
    summary: 'Change SSO and SAML settings of a domain',
    params: domainParams,
    body: domainUpdateSchema,
    status: 200,
    response: domainSchema,
  }),
  destroy: endpoint({
    method: 'DELETE',
    path: `${base}:id/`,
    access: 'organization:write',
    summary: 'Remove a domain',
    params: domainParams,
    status: 204,
  }),
  /** † in the API (scope not given); organization:write here (docs/api.md). Any body is ignored. */
  verify: endpoint({
    method: 'POST',
    path: `${base}:id/verify/`,
    access: 'organization:write',
    summary: 'Check the DNS TXT record and mark the domain verified',
    params: domainParams,
    status: 200,
    response: domainSchema,
  }),
};
