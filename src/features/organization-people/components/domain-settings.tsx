import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { domainEndpoints, type Domain } from '@/contract/domains';
import { z } from '@/contract/z';
import { ConfirmActionDialog } from '@/components/feedback/confirm-delete';
import { FormFooter, SelectField, submitHandler, TextareaField, TextField } from '@/components/form-kit';
import { Switch } from '@/components/ui/switch';
import { useCan } from '@/lib/auth';
import { describeError } from '@/lib/error-messages';
import type { useDomainChange } from '../api/people.mutations';
import { peopleQueries } from '../api/people.queries';
import { pemProblem, ssoLabel, SSO_OPTIONS } from './sso';

type Update = ReturnType<typeof useDomainChange>['update'];
type Sso = Domain['sso_enforcement'];
const LOCKED = 'Verify the domain first.';
/** Members read to count the domain's password users: past this many, the count is a lower bound. */
const MEMBERS_READ = 100;

/**
 * What enforcing `sso` on the domain does, in words: how many of its members sign in with a
 * password now (counted from the members whose email is at the domain and who have no social
 * login), or the rule alone while that is not known.
 */
function EnforceSsoDescription({ organizationId, domain, sso }: { organizationId: string; domain: Domain; sso: Sso }) {
  const at = `@${domain.domain}`;
  const { data } = useQuery(peopleQueries.members(organizationId, { limit: MEMBERS_READ, offset: 0, search: at }));
  const rule = (
    <>
      Everyone with an <strong>{at}</strong> address will have to sign in with {ssoLabel(sso)}.
    </>
  );
  if (!data) return <>{rule} Whoever signs in with a password now will no longer be able to.</>;
  const ofDomain = data.results.filter((m) => m.user.email.toLowerCase().endsWith(at.toLowerCase()));
  const passwords = ofDomain.filter((m) => !m.has_social_auth).length;
  const atLeast = data.count > data.results.length ? 'At least ' : '';
  if (passwords === 0 && !atLeast)
    return <>{rule} No member of this organization with such an address signs in with a password now.</>;
  const who = passwords === 1 ? 'member of this organization signs' : 'members of this organization sign';
  return (
    <>
      {rule} {atLeast}
      {passwords} {who} in with a password now and will be locked out until they sign in with {ssoLabel(sso)}.
    </>
  );
}

/** JIT provisioning and SSO enforcement: locked until the domain is verified. */
export function DomainAccess({
  organizationId,
  domain,
  update,
  canManage,
}: {
  organizationId: string;
  domain: Domain;
  update: Update;
  canManage: boolean;
}) {
  const id = useId();
  const [enforcing, setEnforcing] = useState<Sso | null>(null);
  const allowed = useCan(domainEndpoints.update.access).allowed && canManage;
  const locked = !domain.is_verified;
  const save = (body: Parameters<Update['mutate']>[0], what: string) =>
    update.mutate(body, {
      onSuccess: () => toast.success(`${what} saved`),
      onError: (error) => toast.error(`Couldn't save ${what.toLowerCase()}: ${describeError(error)}`),
    });
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        Sign-in
      </h2>
      {locked ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">{LOCKED} These settings unlock once it is verified.</p>
      ) : null}
      <div className="flex items-start gap-3">
        {/* While a change saves the controls stay enabled (disabling would drop the keyboard's
            focus) and take no other change: aria-disabled says so. */}
        <Switch
          id={`${id}-jit`}
          checked={domain.jit_provisioning_enabled}
          disabled={locked || !allowed}
          aria-disabled={update.isPending || undefined}
          aria-describedby={`${id}-jit-description`}
          onCheckedChange={(checked) =>
            !update.isPending && save({ jit_provisioning_enabled: checked }, 'Automatic provisioning')
          }
        />
        <div>
          <label htmlFor={`${id}-jit`} className="text-sm font-medium">
            Automatic provisioning
          </label>
          <p id={`${id}-jit-description`} className="text-sm text-gray-600 dark:text-gray-400">
            Anyone who signs in with an @{domain.domain} address joins this organization as a member.
          </p>
        </div>
      </div>
      <SelectField
        className="max-w-xs"
        label="Enforce single sign-on with"
        value={domain.sso_enforcement}
        disabled={locked || !allowed}
        aria-disabled={update.isPending || undefined}
        onChange={(event) => {
          const value = event.currentTarget.value as Sso;
          if (update.isPending) event.currentTarget.value = domain.sso_enforcement;
          // Enforcing a provider can lock out every password user of the domain: asked first.
          else if (value !== '') setEnforcing(value);
          else save({ sso_enforcement: value as never }, 'SSO enforcement');
        }}
      >
        {/* SAML is offered once it is configured (below): enforced before, nobody of the domain could sign in. */}
        {SSO_OPTIONS.map((o) => (
          <option
            key={o.value}
            value={o.value}
            disabled={o.value === 'saml' && !domain.has_saml && domain.sso_enforcement !== 'saml'}
          >
            {o.value === 'saml' && !domain.has_saml ? `${o.label} (configure it below first)` : o.label}
          </option>
        ))}
      </SelectField>
      <ConfirmActionDialog
        open={enforcing !== null}
        onOpenChange={(open) => {
          if (!open) setEnforcing(null);
        }}
        title={`Enforce ${ssoLabel(enforcing ?? '')} sign-in for ${domain.domain}?`}
        description={
          enforcing === null ? null : (
            <EnforceSsoDescription organizationId={organizationId} domain={domain} sso={enforcing} />
          )
        }
        confirmLabel={`Enforce ${ssoLabel(enforcing ?? '')}`}
        onConfirm={async () => {
          await update.mutateAsync({ sso_enforcement: enforcing as never });
          toast.success('SSO enforcement saved');
          setEnforcing(null);
        }}
      />
    </section>
  );
}

const samlSchema = z.object({
  saml_entity_id: z.string().check(z.trim()),
  saml_acs_url: z.string().check(z.trim()),
  saml_x509_cert: z.string().check(
    z.trim(),
    z.refine((cert) => pemProblem(cert) === null, { error: (issue) => pemProblem(String(issue.input)) ?? undefined }),
  ),
});
type SamlValues = z.output<typeof samlSchema>;
const SAML_FIELDS = ['saml_entity_id', 'saml_acs_url', 'saml_x509_cert'] as const;

/** SAML: entity id, ACS URL and X.509 certificate (checked as PEM before saving). */
export function SamlForm({ domain, update, canManage }: { domain: Domain; update: Update; canManage: boolean }) {
  const form = useForm<SamlValues>({
    resolver: zodResolver(samlSchema),
    defaultValues: {
      saml_entity_id: domain.saml_entity_id ?? '',
      saml_acs_url: domain.saml_acs_url ?? '',
      saml_x509_cert: domain.saml_x509_cert ?? '',
    },
  });
  const onSubmit = submitHandler(form, SAML_FIELDS, async (values) => {
    await update.mutateAsync(values);
    toast.success('SAML configuration saved');
  });
  if (!canManage) {
    return (
      <section className="max-w-2xl space-y-2" aria-labelledby="saml-heading">
        <h2 id="saml-heading" className="text-lg font-semibold">
          SAML
        </h2>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {domain.has_saml ? 'SAML is configured.' : 'SAML is not configured.'}
        </p>
      </section>
    );
  }
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  return (
    <form noValidate onSubmit={onSubmit} className="max-w-2xl space-y-3" aria-labelledby="saml-heading">
      <h2 id="saml-heading" className="text-lg font-semibold">
        SAML
      </h2>
      <p className="text-sm text-gray-700 dark:text-gray-300">
        {domain.has_saml ? 'SAML is configured.' : 'Fill all three fields to configure SAML.'}
      </p>
      <TextField
        label="Entity ID"
        autoComplete="off"
        error={errors.saml_entity_id?.message}
        {...register('saml_entity_id')}
      />
      <TextField
        label="ACS URL"
        type="url"
        autoComplete="off"
        error={errors.saml_acs_url?.message}
        {...register('saml_acs_url')}
      />
      <TextareaField
        label="X.509 certificate"
        rows={5}
        error={errors.saml_x509_cert?.message}
        description="PEM: from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----."
        {...register('saml_x509_cert')}
      />
      <FormFooter
        error={errors.root?.server?.message}
        submitLabel="Save SAML"
        pendingLabel="Saving…"
        isSubmitting={isSubmitting}
        scope={domainEndpoints.update.access}
      />
    </form>
  );
}
