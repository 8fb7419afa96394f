import { memo, type ReactNode } from 'react';
import { cellClasses, pinnedCellClasses, pinnedHeaderClasses, Table, Th, unpinnedCellClasses } from '@/components/data-table/table';
import { cn } from '@/components/ui/cn';
import { RowCheckbox, SelectAllCheckbox, type RowSelection } from './selection';

/** One column: its header and what a row shows in it. */
export interface Column<T> {
  header: string;
  /** Set as the cells' `data-column` (a hook for benchmarks and styling); optional. */
  id?: string;
  cell: (row: T) => ReactNode;
  /** Classes of the column's cells (alignment, width, wrapping). */
  className?: string;
  /** Classes of its header cell (e.g. the same alignment). */
  headerClassName?: string;
  /**
   * The header is for screen readers only (a column of stars or row actions): its cell stays in
   * the header row, so the row's background runs the whole width.
   */
  hideHeader?: boolean;
  /**
   * Kept in view while the table scrolls sideways (on phones). Default: the first column whose
   * header is shown.
   */
  pinned?: boolean;
}

/** The index of the pinned column (see Column.pinned), or -1. */
export function pinnedColumn<T>(columns: readonly Column<T>[]): number {
  const explicit = columns.findIndex((c) => c.pinned);
  if (explicit >= 0) return explicit;
  return columns.findIndex((c) => c.pinned !== false && !c.hideHeader);
}

export interface RowSelectionOptions<T> {
  selection: RowSelection<T>;
  /** Names the row in its checkbox ("Select <label>"). */
  rowLabel: (row: T) => string;
}

interface DataTableProps<T> {
  caption: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  getRowId: (row: T) => string;
  /** Adds a checkbox column (and "Select all on this page"). */
  selectable?: RowSelectionOptions<T> | undefined;
}

interface RowProps<T> {
  row: T;
  /** Stable across renders (define them once, or with useMemo), or every row re-renders. */
  columns: readonly Column<T>[];
  rowId: string;
  /** The index of the column kept in view. */
  pinned: number;
  /** Null: no selection column. */
  selectLabel: string | null;
  checked: boolean;
  onToggle: (id: string, checked: boolean) => void;
}

/** One row; memoised so that a change to one row (a toggle, a selection) re-renders only it. */
const DataRow = memo(function DataRow<T>({ row, columns, rowId, pinned, selectLabel, checked, onToggle }: RowProps<T>) {
  return (
    <tr data-row-id={rowId} className="group hover:bg-gray-50 dark:hover:bg-gray-900">
      {selectLabel !== null ? (
        <td className={cn(cellClasses, 'w-10')}>
          <RowCheckbox label={selectLabel} checked={checked} onChange={(next) => onToggle(rowId, next)} />
        </td>
      ) : null}
      {/* Plain cells with Td's classes: a row draws many, and each component costs the first render. */}
      {columns.map((column, index) => (
        <td
          key={column.header}
          className={cn(cellClasses, index === pinned ? pinnedCellClasses : unpinnedCellClasses, column.className)}
          data-column={column.id}
        >
          {column.cell(row)}
        </td>
      ))}
    </tr>
  );
}) as <T>(props: RowProps<T>) => ReactNode;

const ignoreToggle = () => {};

/**
 * A real table from column definitions, with an optional selection column. On phones it scrolls
 * sideways in its frame with its identifying column kept in view (Column.pinned).
 */
export function DataTable<T>({ caption, rows, columns, getRowId, selectable }: DataTableProps<T>) {
  const pinned = pinnedColumn(columns);
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          {selectable ? (
            <Th className="w-10">
              <SelectAllCheckbox selection={selectable.selection} />
            </Th>
          ) : null}
          {columns.map((column, index) => (
            <Th key={column.header} className={cn(index === pinned && pinnedHeaderClasses, column.headerClassName)}>
              {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const id = getRowId(row);
          return (
            <DataRow
              key={id}
              row={row}
              rowId={id}
              pinned={pinned}
              columns={columns}
              selectLabel={selectable ? selectable.rowLabel(row) : null}
              checked={selectable ? selectable.selection.isSelected(id) : false}
              onToggle={selectable ? selectable.selection.toggle : ignoreToggle}
            />
          );
        })}
      </tbody>
    </Table>
  );
}
