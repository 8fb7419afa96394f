import { useSuspenseQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { organizationEndpoints } from '@/contract/organizations';
import { Pagination } from '@/components/data-table/pagination';
import { EmptyState } from '@/components/feedback/empty-state';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { pageParams } from '@/lib/page-search';
import { organizationQueries } from '../api/organizations.queries';
import { OrganizationsPageHeader as PageHeader } from './organizations-page-header';
import { OrganizationsTable } from './organizations-table';

// Loaded when first opened: keeps the form code out of the list's initial JavaScript.
const CreateOrganizationDialog = lazy(() =>
  import('./create-organization-dialog').then((module) => ({ default: module.CreateOrganizationDialog })),
);

export interface OrganizationsPageProps {
  /** 1-based page number, from the URL. */
  page: number;
  pageSize: number;
  createOpen: boolean;
  onPageChange: (page: number) => void;
  onCreateOpenChange: (open: boolean) => void;
}

function NewOrganizationButton({ onClick }: { onClick: () => void }) {
  return (
    <ScopedAction scope={organizationEndpoints.create.access}>
      <Button variant="primary" onClick={onClick}>
        <Plus aria-hidden="true" className="size-4" />
        New organization
      </Button>
    </ScopedAction>
  );
}

/** The list of organizations with server pagination (page and page size in the URL). */
export function OrganizationsPage({ page, pageSize, createOpen, onPageChange, onCreateOpenChange }: OrganizationsPageProps) {
  const { data } = useSuspenseQuery(organizationQueries.list(pageParams(page, pageSize)));
  const openCreate = () => onCreateOpenChange(true);

  let body: ReactNode;
  if (data.count === 0) {
    body = (
      <EmptyState title="No organizations yet">
        Use “New organization” to create the first one: it comes with a project.
      </EmptyState>
    );
  } else if (data.results.length === 0) {
    body = (
      <EmptyState title="Nothing on this page" action={<Button onClick={() => onPageChange(1)}>Go to the first page</Button>}>
        There are {data.count} organizations, but page {page} is past the last one.
      </EmptyState>
    );
  } else {
    body = (
      <>
        <OrganizationsTable organizations={data.results} />
        <Pagination label="Organizations" page={page} pageSize={pageSize} count={data.count} onPageChange={onPageChange} />
      </>
    );
  }

  return (
    <>
      <PageHeader action={<NewOrganizationButton onClick={openCreate} />} />
      {body}
      {createOpen ? (
        <Suspense fallback={null}>
          <CreateOrganizationDialog open onOpenChange={onCreateOpenChange} />
        </Suspense>
      ) : null}
    </>
  );
}
