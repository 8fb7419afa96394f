import { useId, useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import { domainEndpoints, type Domain } from '@/contract/domains';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { FormError, SelectField, TextareaField, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { useCan } from '@/lib/auth';
import { describeError } from '@/lib/error-messages';
import type { useDomainChange } from '../api/people.mutations';
import { pemProblem, SSO_OPTIONS } from './sso';

type Update = ReturnType<typeof useDomainChange>['update'];
const LOCKED = 'Verify the domain first.';

/** JIT provisioning and SSO enforcement: locked until the domain is verified. */
export function DomainAccess({ domain, update, canManage }: { domain: Domain; update: Update; canManage: boolean }) {
  const id = useId();
  const allowed = useCan(domainEndpoints.update.access).allowed && canManage;
  const locked = !domain.is_verified;
  const save = (body: Parameters<Update['mutate']>[0], what: string) =>
    update.mutate(body, {
      onSuccess: () => toast.success(`${what} saved`),
      onError: (error) => toast.error(`Couldn't save ${what.toLowerCase()}: ${describeError(error)}`),
    });
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold">Sign-in</h2>
      {locked ? <p className="text-sm text-gray-700 dark:text-gray-300">{LOCKED} These settings unlock once it is verified.</p> : null}
      <div className="flex items-start gap-3">
        {/* While a change saves the controls stay enabled (disabling would drop the keyboard's
            focus) and take no other change: aria-disabled says so. */}
        <Switch id={`${id}-jit`} checked={domain.jit_provisioning_enabled} disabled={locked || !allowed}
          aria-disabled={update.isPending || undefined} aria-describedby={`${id}-jit-description`}
          onCheckedChange={(checked) => !update.isPending && save({ jit_provisioning_enabled: checked }, 'Automatic provisioning')} />
        <div>
          <label htmlFor={`${id}-jit`} className="text-sm font-medium">Automatic provisioning</label>
          <p id={`${id}-jit-description`} className="text-sm text-gray-600 dark:text-gray-400">
            Anyone who signs in with an @{domain.domain} address joins this organization as a member.
          </p>
        </div>
      </div>
      <SelectField className="max-w-xs" label="Enforce single sign-on with" value={domain.sso_enforcement}
        disabled={locked || !allowed} aria-disabled={update.isPending || undefined}
        onChange={(event) => {
          if (update.isPending) event.currentTarget.value = domain.sso_enforcement;
          else save({ sso_enforcement: event.currentTarget.value as Domain['sso_enforcement'] as never }, 'SSO enforcement');
        }}>
        {/* SAML is offered once it is configured (below): enforced before, nobody of the domain could sign in. */}
        {SSO_OPTIONS.map((o) => (
          <option key={o.value} value={o.value} disabled={o.value === 'saml' && !domain.has_saml && domain.sso_enforcement !== 'saml'}>
            {o.value === 'saml' && !domain.has_saml ? `${o.label} (configure it below first)` : o.label}
          </option>
        ))}
      </SelectField>
    </section>
  );
}

/** SAML: entity id, ACS URL and X.509 certificate (checked as PEM before saving). */
export function SamlForm({ domain, update, canManage }: { domain: Domain; update: Update; canManage: boolean }) {
  const [entityId, setEntityId] = useState(domain.saml_entity_id ?? '');
  const [acsUrl, setAcsUrl] = useState(domain.saml_acs_url ?? '');
  const [cert, setCert] = useState(domain.saml_x509_cert ?? '');
  const [certError, setCertError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = pemProblem(cert);
    setCertError(problem ?? undefined);
    if (problem) return;
    setFormError(undefined);
    update.mutate({ saml_entity_id: entityId.trim(), saml_acs_url: acsUrl.trim(), saml_x509_cert: cert.trim() }, {
      onSuccess: () => toast.success('SAML configuration saved'),
      onError: (error) => setFormError(describeError(error)),
    });
  };
  if (!canManage) {
    return (
      <section className="max-w-2xl space-y-2" aria-labelledby="saml-heading">
        <h2 id="saml-heading" className="text-lg font-semibold">SAML</h2>
        <p className="text-sm text-gray-700 dark:text-gray-300">{domain.has_saml ? 'SAML is configured.' : 'SAML is not configured.'}</p>
      </section>
    );
  }
  return (
    <form noValidate onSubmit={onSubmit} className="max-w-2xl space-y-3" aria-labelledby="saml-heading">
      <h2 id="saml-heading" className="text-lg font-semibold">SAML</h2>
      <p className="text-sm text-gray-700 dark:text-gray-300">{domain.has_saml ? 'SAML is configured.' : 'Fill all three fields to configure SAML.'}</p>
      <FormError message={formError} />
      <TextField label="Entity ID" value={entityId} onChange={(event) => setEntityId(event.target.value)} autoComplete="off" />
      <TextField label="ACS URL" type="url" value={acsUrl} onChange={(event) => setAcsUrl(event.target.value)} autoComplete="off" />
      <TextareaField label="X.509 certificate" rows={5} value={cert} error={certError}
        description="PEM: from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----."
        onChange={(event) => { setCert(event.target.value); setCertError(undefined); }} />
      <ScopedAction scope={domainEndpoints.update.access}>
        <Button type="submit" disabled={update.isPending}>Save SAML</Button>
      </ScopedAction>
    </form>
  );
}
