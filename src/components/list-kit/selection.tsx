import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';

export interface RowSelection<T> {
  /** The selected rows among `rows` (a selection made on another page does not count here). */
  selected: T[];
  isSelected: (id: string) => boolean;
  toggle: (id: string, selected: boolean) => void;
  toggleAll: (selected: boolean) => void;
  clear: () => void;
  allSelected: boolean;
  someSelected: boolean;
}

/** Which of the page's rows are selected, by id. */
export function useRowSelection<T>(rows: readonly T[], getRowId: (row: T) => string): RowSelection<T> {
  const [ids, setIds] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (id: string, selected: boolean) =>
      setIds((previous) => {
        const next = new Set(previous);
        if (selected) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  return useMemo(() => {
    const selected = rows.filter((row) => ids.has(getRowId(row)));
    const allSelected = rows.length > 0 && selected.length === rows.length;
    return {
      selected,
      isSelected: (id) => ids.has(id),
      toggle,
      toggleAll: (on) => setIds(new Set(on ? rows.map(getRowId) : [])),
      clear: () => setIds(new Set()),
      allSelected,
      someSelected: !allSelected && selected.length > 0,
    };
  }, [rows, ids, getRowId, toggle]);
}

const checkboxClasses = 'size-4 accent-indigo-600';

export function SelectAllCheckbox({
  selection,
  id,
}: {
  selection: Pick<RowSelection<unknown>, 'allSelected' | 'someSelected' | 'toggleAll'>;
  id?: string;
}) {
  return (
    <input
      id={id}
      type="checkbox"
      aria-label="Select all on this page"
      checked={selection.allSelected}
      ref={(element) => {
        if (element) element.indeterminate = selection.someSelected;
      }}
      onChange={(event) => selection.toggleAll(event.target.checked)}
      className={checkboxClasses}
    />
  );
}

export function RowCheckbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      aria-label={`Select ${label}`}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
      className={checkboxClasses}
    />
  );
}

/** "N selected", the feature's bulk actions and "Clear selection", above the table. */
export function BulkActionBar({
  label,
  count,
  onClear,
  children,
}: {
  label: string;
  count: number;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className="mb-3 flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm dark:border-indigo-900 dark:bg-indigo-950"
    >
      <span className="font-medium" aria-live="polite">
        {count} selected
      </span>
      {children}
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}
