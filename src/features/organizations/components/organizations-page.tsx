import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Suspense } from 'react';
import { preloadable } from '@/lib/preloadable';
import { organizationEndpoints, type Organization } from '@/contract/organizations';
import { formatDate } from '@/lib/dates';
import { ListPage, PrimaryAction, usePageSearch, type Column } from '@/components/list-kit';
import { organizationQueries } from '../api/organizations.queries';
import { organizationsHeader } from './organizations-page-states';

// Loaded when first opened: keeps the form code out of the list's initial JavaScript.
const CreateOrganizationDialog = preloadable(async () => ({
  default: (await import('./create-organization-dialog')).CreateOrganizationDialog,
})).Component;

const route = getRouteApi('/_authed/organizations/');

const columns: readonly Column<Organization>[] = [
  {
    header: 'Name',
    className: 'max-w-xs break-words',
    cell: (organization) => (
      <Link
        to="/organizations/$organizationId"
        params={{ organizationId: organization.id }}
        className="font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
      >
        {organization.name}
      </Link>
    ),
  },
  { header: 'Slug', className: 'max-w-48 font-mono text-xs break-all', cell: (organization) => organization.slug },
  {
    header: 'Members',
    className: 'text-right tabular-nums',
    headerClassName: 'text-right',
    cell: (organization) => organization.member_count,
  },
  {
    header: 'Projects',
    className: 'text-right tabular-nums',
    headerClassName: 'text-right',
    cell: (organization) => organization.teams.length,
  },
  {
    header: 'Created',
    className: 'whitespace-nowrap',
    cell: (organization) => <time dateTime={organization.created_at}>{formatDate(organization.created_at)}</time>,
  },
];

const organizationId = (organization: Organization) => organization.id;

/** The organizations the key reaches, paged in the URL; "New organization" opens `?create=true`. */
export function OrganizationsPage() {
  const { params } = usePageSearch();
  const { data } = useSuspenseQuery(organizationQueries.list(params));
  const { create } = route.useSearch();
  const navigate = route.useNavigate();
  const setCreateOpen = (open: boolean) =>
    void navigate({ search: (previous) => ({ ...previous, create: open ? true : undefined }), replace: !open });

  return (
    <>
      <ListPage
        {...organizationsHeader}
        action={
          <PrimaryAction scope={organizationEndpoints.create.access} onClick={() => setCreateOpen(true)}>
            New organization
          </PrimaryAction>
        }
        data={data}
        columns={columns}
        getRowId={organizationId}
        empty={{
          title: 'No organizations yet',
          children: 'Use “New organization” to create the first one: it comes with a project.',
        }}
      />
      {create === true ? (
        <Suspense fallback={null}>
          <CreateOrganizationDialog open onOpenChange={setCreateOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
