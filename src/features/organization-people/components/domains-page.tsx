import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import { domainEndpoints, domainNameSchema, type Domain } from '@/contract/domains';
import { MEMBERSHIP_LEVELS } from '@/contract/organizations';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { TextField } from '@/components/form-kit';
import { ListPage, usePageSearch, type Column } from '@/components/list-kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import { peopleMutations } from '../api/people.mutations';
import { peopleQueries } from '../api/people.queries';
import { domainsHeader } from './page-states';
import { ssoLabel } from './sso';

const route = getRouteApi('/_authed/organizations/$organizationId/domains/');

/** Domains decide who signs in and how: the server lets only admins and owners change them. */
export function useCanManageDomains(organizationId: string): boolean {
  const { data: organization } = useSuspenseQuery(peopleQueries.organization(organizationId));
  return (organization.membership_level ?? MEMBERSHIP_LEVELS.member) >= MEMBERSHIP_LEVELS.admin;
}

export const MEMBERS_CANNOT_MANAGE = 'Only admins and owners can add, verify and configure domains.';

export function VerifiedBadge({ domain }: { domain: Pick<Domain, 'is_verified'> }) {
  return domain.is_verified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>;
}

function AddDomain({ organizationId }: { organizationId: string }) {
  const navigate = route.useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const { mutateAsync, isPending } = useMutation(peopleMutations.addDomain(organizationId));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = domainNameSchema.safeParse(value.trim());
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    try {
      const created = await mutateAsync({ domain: parsed.data });
      toast.success(`${created.domain} added: publish its TXT record to verify it`);
      await navigate({ to: '/organizations/$organizationId/domains/$domainId', params: { organizationId, domainId: created.id } });
    } catch (failure) {
      setError(isApiError(failure) && failure.attr === 'domain' ? failure.detail : describeError(failure));
    }
  };
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="mb-6 flex flex-wrap items-start gap-3">
      <TextField className="min-w-64" label="Domain" placeholder="example.com" value={value} error={error} autoComplete="off"
        spellCheck={false} onChange={(event) => { setValue(event.target.value); setError(undefined); }} />
      <ScopedAction scope={domainEndpoints.create.access}>
        <Button variant="primary" type="submit" className="mt-6" disabled={isPending}>{isPending ? 'Adding…' : 'Add domain'}</Button>
      </ScopedAction>
    </form>
  );
}

function domainColumns(organizationId: string): Column<Domain>[] {
  return [
    {
      header: 'Domain',
      cell: (d) => (
        <Link to="/organizations/$organizationId/domains/$domainId" params={{ organizationId, domainId: d.id }}
          className="font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300">
          {d.domain}
        </Link>
      ),
    },
    { header: 'Status', cell: (d) => <VerifiedBadge domain={d} /> },
    { header: 'Automatic provisioning', cell: (d) => (d.jit_provisioning_enabled ? 'On' : 'Off') },
    { header: 'SSO enforcement', cell: (d) => ssoLabel(d.sso_enforcement) },
    { header: 'SAML', cell: (d) => (d.has_saml ? 'Configured' : 'Not configured') },
  ];
}

const domainId = (d: Domain) => d.id;

/** The organization's domains and a form to add one. */
export function DomainsPage() {
  const { organizationId } = route.useParams();
  const { params } = usePageSearch();
  const { data } = useSuspenseQuery(peopleQueries.domains(organizationId, params));
  const [columns] = useState(() => domainColumns(organizationId));
  const canManage = useCanManageDomains(organizationId);
  return (
    <ListPage
      {...domainsHeader}
      toolbar={canManage ? <AddDomain organizationId={organizationId} /> : <p className="mb-6 text-sm text-gray-700 dark:text-gray-300">{MEMBERS_CANNOT_MANAGE}</p>}
      data={data}
      columns={columns}
      getRowId={domainId}
      empty={{ title: 'No domains yet', children: 'Add the email domain of your company to verify it.' }}
    />
  );
}
