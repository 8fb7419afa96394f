import type { ErrorComponentProps } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Page, Scope } from '@/contract/common';
import { Pagination } from '@/components/data-table/pagination';
import { TableSkeleton } from '@/components/data-table/table-skeleton';
import { EmptyState } from '@/components/feedback/empty-state';
import { RouteError } from '@/components/feedback/route-error';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { PageTitle } from '@/components/layout/page-title';
import { Button } from '@/components/ui/button';
import { DataTable, type Column } from '@/components/data-table/data-table';
import { BulkActionBar, useRowSelection } from './selection';
import { usePageSearch } from './use-page-search';

/** What a list page is called: its h1, the line under it, and the name of its rows. */
export interface ListHeader {
  title: string;
  description: ReactNode;
}

export function ListPageHeader({ title, description, action }: ListHeader & { action?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <PageTitle title={title} description={description} />
      {action}
    </div>
  );
}

/** The route's pending component: the header and placeholder rows. */
export function ListPageSkeleton({ columns, ...header }: ListHeader & { columns: number }) {
  return (
    <>
      <ListPageHeader {...header} />
      <TableSkeleton columns={columns} label={`Loading ${header.title.toLowerCase()}`} />
    </>
  );
}

/** The route's error component: the header stays, the error in words takes the list's place. */
export function ListPageError({ header, ...error }: ErrorComponentProps & { header: ListHeader }) {
  return (
    <>
      <ListPageHeader {...header} />
      <RouteError {...error} headingLevel={2} />
    </>
  );
}

/**
 * The route's pending and error components of a list page, from its header: export them from a
 * small file of the feature so they load with the route tree, apart from the page.
 */
export function listPageStates(header: ListHeader, columns: number) {
  return {
    PageSkeleton: () => <ListPageSkeleton {...header} columns={columns} />,
    PageError: (props: ErrorComponentProps) => <ListPageError {...props} header={header} />,
  };
}

/** The header's primary action ("New …"): disabled with the reason when the key lacks `scope`. */
export function PrimaryAction({
  scope,
  onClick,
  children,
}: {
  scope: Scope;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <ScopedAction scope={scope}>
      <Button variant="primary" onClick={onClick}>
        <Plus aria-hidden="true" className="size-4" />
        {children}
      </Button>
    </ScopedAction>
  );
}

export interface BulkActions<T> {
  /** Names the row in its checkbox ("Select <label>"). */
  rowLabel: (row: T) => string;
  /** The buttons acting on the selected rows of this page. */
  render: (selected: T[]) => ReactNode;
}

interface ListPageProps<T> extends ListHeader {
  /** The primary action (e.g. "New …"), right of the title. */
  action?: ReactNode;
  /** The page of rows, from a list query of the page in the URL (`usePageSearch().params`). */
  data: Page<T>;
  columns: readonly Column<T>[];
  getRowId: (row: T) => string;
  /** When there are no rows at all: what to say and how to make the first one. */
  empty: { title: string; children: ReactNode };
  /** Row checkboxes and a bar of actions on the selected rows. */
  bulkActions?: BulkActions<T>;
  /** Between the header and the table: the list's search and filters (kept in the URL by the feature). */
  toolbar?: ReactNode;
}

/**
 * A paged list page: header with its primary action, the table (with selection and bulk actions
 * if asked), pagination in the URL, and the empty and past-the-last-page states. The route gives
 * it `pageSearchSchema` and uses ListPageSkeleton / ListPageError as pending and error components.
 */
export function ListPage<T>({
  title,
  description,
  action,
  data,
  columns,
  getRowId,
  empty,
  bulkActions,
  toolbar,
}: ListPageProps<T>) {
  const { page, pageSize, setPage } = usePageSearch();
  const selection = useRowSelection(data.results, getRowId);
  const noun = title.toLowerCase();

  let body: ReactNode;
  if (data.count === 0) {
    body = <EmptyState title={empty.title}>{empty.children}</EmptyState>;
  } else if (data.results.length === 0) {
    body = (
      <EmptyState
        title="Nothing on this page"
        action={<Button onClick={() => setPage(1)}>Go to the first page</Button>}
      >
        There are {data.count} {noun}, but page {page} is past the last one.
      </EmptyState>
    );
  } else {
    body = (
      <>
        {bulkActions && selection.selected.length > 0 ? (
          <BulkActionBar label={`Selected ${noun}`} count={selection.selected.length} onClear={selection.clear}>
            {bulkActions.render(selection.selected)}
          </BulkActionBar>
        ) : null}
        <DataTable
          caption={title}
          rows={data.results}
          columns={columns}
          getRowId={getRowId}
          selectable={bulkActions ? { selection, rowLabel: bulkActions.rowLabel } : undefined}
        />
        <Pagination label={title} page={page} pageSize={pageSize} count={data.count} onPageChange={setPage} />
      </>
    );
  }

  return (
    <>
      <ListPageHeader title={title} description={description} action={action} />
      {toolbar}
      {body}
    </>
  );
}
