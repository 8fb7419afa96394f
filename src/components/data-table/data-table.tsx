import { memo, useId, type ReactNode } from 'react';
import { cellClasses, pinnedCellClasses, pinnedHeaderClasses, Table, Th } from './table';
import { cn } from '@/components/ui/cn';
import { RowCheckbox, SelectAllCheckbox, type RowSelection } from '@/components/list-kit/selection';

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
   * The row's identifying column: kept in view while the table scrolls sideways, and the card's
   * title on phones. Default: the first column whose header is shown.
   */
  pinned?: boolean;
}

/*
 * On phones (below `md`) each row is a card, so its actions are never off-screen: the title (the
 * pinned column) with the columns of hidden headers before it (a star, an icon) on its first line,
 * then each other column on a line of its own under its header's words, the row's actions last.
 * It stays a table for assistive technology (the header cells are only visually hidden); the
 * header's words shown in a card are generated content without alternative text, since each
 * cell already has its header.
 */
const cardRow =
  'max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-x-3 max-md:gap-y-2 max-md:border-b max-md:border-gray-200 max-md:px-3 max-md:py-3 max-md:dark:border-gray-800';
const cardCell =
  'max-md:block max-md:border-0 max-md:p-0 max-md:text-left max-md:w-auto max-md:max-w-none max-md:whitespace-normal max-md:wrap-anywhere';
const cardTitle = 'max-md:min-w-0 max-md:flex-1 max-md:basis-1/2 max-md:font-medium';
const cardField = 'max-md:grid max-md:basis-full max-md:grid-cols-[minmax(6rem,auto)_1fr] max-md:gap-x-3';

const cardEnd = 'max-md:basis-full';
/** The header's words before a card's value, as generated content with no text for assistive technology. */
const cardLabel =
  "max-md:before:text-gray-600 max-md:before:[--tw-content:attr(data-label)_/_''] max-md:dark:before:text-gray-400";

/** A cell's place in its card: the title, beside the title, a labelled line, or the actions' line. */
function cardClasses(index: number, pinned: number, hideHeader: boolean | undefined): string {
  if (index === pinned) return cardTitle;
  if (hideHeader) return index < pinned ? '' : cardEnd;
  return cn(cardField, cardLabel);
}

const isBlank = (node: ReactNode) => node === null || node === undefined || node === '' || node === false;

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
    <tr data-row-id={rowId} className={cn('group hover:bg-gray-50 dark:hover:bg-gray-900', cardRow)}>
      {selectLabel !== null ? (
        <td className={cn(cellClasses, cardCell, 'w-10')}>
          <RowCheckbox label={selectLabel} checked={checked} onChange={(next) => onToggle(rowId, next)} />
        </td>
      ) : null}
      {/* Plain cells with Td's classes: a row draws many, and each component costs the first render. */}
      {columns.map((column, index) => {
        const content = column.cell(row);
        const labelled = index !== pinned && !column.hideHeader;
        return (
          <td
            key={column.header}
            className={cn(
              cellClasses,
              index === pinned && pinnedCellClasses,
              column.className,
              cardCell,
              cardClasses(index, pinned, column.hideHeader),
              labelled && isBlank(content) && 'max-md:hidden',
            )}
            data-column={column.id}
            data-label={labelled ? column.header : undefined}
          >
            {labelled ? <div className="contents max-md:block max-md:min-w-0">{content}</div> : content}
          </td>
        );
      })}
    </tr>
  );
}) as <T>(props: RowProps<T>) => ReactNode;

const ignoreToggle = () => {};

/**
 * A real table from column definitions, with an optional selection column. On phones its rows
 * are cards (see `cardRow`), the header row showing only "Select all on this page".
 */
export function DataTable<T>({ caption, rows, columns, getRowId, selectable }: DataTableProps<T>) {
  const pinned = pinnedColumn(columns);
  const selectAllId = useId();
  return (
    <Table caption={caption} className="max-md:block">
      <thead className={selectable ? 'max-md:block' : 'max-md:sr-only'}>
        <tr className="max-md:flex max-md:border-b max-md:border-gray-200 max-md:dark:border-gray-800">
          {selectable ? (
            <Th className="w-10 max-md:block max-md:flex-1 max-md:border-0 max-md:px-3">
              <span className="inline-flex items-center gap-2">
                <SelectAllCheckbox id={selectAllId} selection={selectable.selection} />
                <label htmlFor={selectAllId} aria-hidden="true" className="hidden font-normal max-md:inline">
                  Select all
                </label>
              </span>
            </Th>
          ) : null}
          {columns.map((column, index) => (
            <Th
              key={column.header}
              className={cn(index === pinned && pinnedHeaderClasses, column.headerClassName, 'max-md:sr-only')}
            >
              {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody className="max-md:block">
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
