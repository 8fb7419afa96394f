import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { domainEndpoints, domainNameSchema, type Domain } from '@/contract/domains';
import { MEMBERSHIP_LEVELS } from '@/contract/organizations';
import { z } from '@/contract/z';
import { FormFooter, submitHandler, TextField } from '@/components/form-kit';
import { ListPage, usePageSearch, type Column } from '@/components/list-kit';
import { Badge } from '@/components/ui/badge';
import { peopleMutations } from '../api/people.mutations';
import { peopleQueries } from '../api/people.queries';
import { domainsHeader } from './organization-people-page-states';
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

// Spaces around a pasted name are not the user's mistake: trimmed before the API's own rules.
const addDomainSchema = z.object({ domain: z.pipe(z.string().check(z.trim()), domainNameSchema) });
type AddDomainValues = z.output<typeof addDomainSchema>;

function AddDomain({ organizationId }: { organizationId: string }) {
  const navigate = route.useNavigate();
  const { mutateAsync } = useMutation(peopleMutations.addDomain(organizationId));
  const form = useForm<AddDomainValues>({ resolver: zodResolver(addDomainSchema), defaultValues: { domain: '' } });
  const onSubmit = submitHandler(form, ['domain'], async (values) => {
    const created = await mutateAsync(values);
    toast.success(`${created.domain} added: publish its TXT record to verify it`);
    await navigate({
      to: '/organizations/$organizationId/domains/$domainId',
      params: { organizationId, domainId: created.id },
    });
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  return (
    <form noValidate onSubmit={onSubmit} className="mb-6 flex flex-wrap items-start gap-3">
      <TextField
        className="min-w-64"
        label="Domain"
        placeholder="example.com"
        autoComplete="off"
        spellCheck={false}
        error={errors.domain?.message ?? errors.root?.server?.message}
        {...register('domain')}
      />
      <div className="mt-6">
        <FormFooter
          error={undefined}
          submitLabel="Add domain"
          pendingLabel="Adding…"
          isSubmitting={isSubmitting}
          scope={domainEndpoints.create.access}
        />
      </div>
    </form>
  );
}

function domainColumns(organizationId: string): Column<Domain>[] {
  return [
    {
      header: 'Domain',
      cell: (d) => (
        <Link
          to="/organizations/$organizationId/domains/$domainId"
          params={{ organizationId, domainId: d.id }}
          className="font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
        >
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
      toolbar={
        canManage ? (
          <AddDomain organizationId={organizationId} />
        ) : (
          <p className="mb-6 text-sm text-gray-700 dark:text-gray-300">{MEMBERS_CANNOT_MANAGE}</p>
        )
      }
      data={data}
      columns={columns}
      getRowId={domainId}
      empty={{ title: 'No domains yet', children: 'Add the email domain of your company to verify it.' }}
    />
  );
}
