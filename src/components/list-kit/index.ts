/** The paged-list kit: every list page is built from these (see docs/kits.md). */
export { DataTable, type Column } from '@/components/data-table/data-table';
export {
  ListPage,
  ListPageError,
  ListPageHeader,
  ListPageSkeleton,
  listPageStates,
  PrimaryAction,
  type BulkActions,
  type ListHeader,
} from './list-page';
export { BulkActionBar, useRowSelection, type RowSelection } from './selection';
export { usePageSearch, type PageSearch } from './use-page-search';
