import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, Copy, Filter, GripVertical, Pencil, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import type { EntityInput, MathType } from '@/contract/analytics-params';
import { cn } from '@/components/ui/cn';
import { EventPicker } from './event-picker';
import { lowerFirst } from './labels';
import { COUNT_MATHS, isPropertyMath, MATH_WORDS, PROPERTY_MATHS } from './math-options';
import { FieldError, useErrorId } from './picker-trigger';
import { PropertyFilters, type ErrorFor } from './property-filters';
import { PropertyKeyPicker } from './property-key-picker';

export interface SeriesRowProps {
  uid: string;
  projectId: number;
  mode: 'trends' | 'funnel';
  entry: EntityInput;
  index: number;
  count: number;
  /** "Series A" / "Step 1". */
  name: string;
  /** "A" / "1": the badge. */
  badge: string;
  onChange: (next: EntityInput) => void;
  onRemove: () => void;
  onDuplicate: () => void;
  onMove: (to: number) => void;
  canAdd: boolean;
  removeReason: string;
  errorFor?: ErrorFor | undefined;
}

const iconButton =
  'inline-flex size-8 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900 disabled:cursor-not-allowed disabled:opacity-40 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100';

const eventName = (id: EntityInput['id']): string | null => (id === null || id === undefined ? null : String(id));

/** One series (or funnel step): handle, event, maths, name, filters, duplicate, remove. */
export function SeriesRow(p: SeriesRowProps) {
  const { entry, index, name, errorFor } = p;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: p.uid });
  const [showFilters, setShowFilters] = useState(() => hasFilters(entry));
  const [renaming, setRenaming] = useState(false);
  const filtersId = useId();
  const reasonId = useId();
  const renameId = useId();
  const err = (field: string) => errorFor?.(`events__${index}__${field}`);
  const mathError = useErrorId(err('math'));
  const event = eventName(entry.id);
  const math = (entry.math ?? 'total') as MathType;
  const filterCount = countFilters(entry);

  const style = { transform: CSS.Translate.toString(transform), transition: transition };
  return (
    <li
      ref={setNodeRef}
      style={style}
      data-sortable-row=""
      className={cn('rounded-lg border border-gray-200 bg-white p-2 dark:border-gray-700 dark:bg-gray-950', isDragging && 'relative z-10 shadow-lg')}
    >
      <div className="flex flex-wrap items-start gap-1.5">
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Reorder ${lowerFirst(name)}`}
          className={cn(iconButton, 'cursor-grab touch-none active:cursor-grabbing')}
        >
          <GripVertical aria-hidden className="size-4" />
        </button>
        <span
          aria-hidden
          className="inline-flex h-8 min-w-8 items-center justify-center rounded-md bg-indigo-100 px-1.5 text-xs font-bold text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100"
        >
          {p.badge}
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          {renaming ? (
            <RenameInput
              name={name}
              initial={entry.custom_name ?? ''}
              onDone={(text) => {
                setRenaming(false);
                document.getElementById(renameId)?.focus();
                if (text !== undefined) p.onChange({ ...entry, custom_name: text.trim() === '' ? null : text.trim() });
              }}
            />
          ) : entry.custom_name ? (
            <span className="truncate text-sm font-semibold text-gray-900 dark:text-gray-100">{entry.custom_name}</span>
          ) : null}
          <div className="flex flex-wrap items-start gap-1.5">
            <EventPicker
              projectId={p.projectId}
              value={event}
              onChange={(id) => p.onChange(withEvent(entry, id))}
              label={`${name} event`}
              allowAll={p.mode === 'trends'}
              error={err('id')}
            />
            {p.mode === 'trends' ? (
              <div className="flex flex-col gap-1">
                <select
                  aria-label={`${name} math`}
                  aria-describedby={mathError.describedBy}
                  aria-invalid={err('math') ? true : undefined}
                  value={math}
                  onChange={(e) => p.onChange(withMath(entry, e.target.value as MathType))}
                  className={cn(
                    'h-8 rounded-md border bg-white px-2 text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100',
                    err('math') ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
                  )}
                >
                  {COUNT_MATHS.map((m) => (
                    <option key={m} value={m}>{MATH_WORDS[m]}</option>
                  ))}
                  <optgroup label="Of a numeric property">
                    {PROPERTY_MATHS.map((m) => (
                      <option key={m} value={m}>{MATH_WORDS[m]}</option>
                    ))}
                  </optgroup>
                </select>
                <FieldError id={mathError.errorId} message={err('math')} />
              </div>
            ) : null}
            {p.mode === 'trends' && isPropertyMath(math) ? (
              <PropertyKeyPicker
                projectId={p.projectId}
                value={entry.math_property ? { key: entry.math_property, type: 'event' } : null}
                onChange={(k) => p.onChange({ ...entry, math_property: k.key })}
                label={`${name} property`}
                numericOnly
                types={['event']}
                eventNames={event === null ? undefined : [event]}
                error={err('math_property')}
                placeholder="Choose a numeric property"
              />
            ) : null}
          </div>
        </div>
        <RowActions {...p} filterCount={filterCount} showFilters={showFilters} filtersId={filtersId} reasonId={reasonId} renameId={renameId}
          onToggleFilters={() => setShowFilters((v) => !v)} onRename={() => setRenaming(true)} />
      </div>
      {showFilters ? (
        <div id={filtersId} className="mt-2 border-t border-gray-100 pt-2 pl-10 dark:border-gray-800">
          <PropertyFilters
            projectId={p.projectId}
            value={entry.properties as never}
            onChange={(properties) => p.onChange({ ...entry, properties })}
            label={`${name} filters`}
            eventNames={event === null ? undefined : [event]}
            attrPrefix={`events__${index}__properties`}
            errorFor={errorFor}
          />
        </div>
      ) : null}
    </li>
  );
}

interface RowActionsProps extends SeriesRowProps {
  filterCount: number;
  showFilters: boolean;
  filtersId: string;
  reasonId: string;
  renameId: string;
  onToggleFilters: () => void;
  onRename: () => void;
}

function RowActions({ name, index, count, filterCount, showFilters, filtersId, reasonId, renameId, onToggleFilters, onRename, onMove, onDuplicate, onRemove, canAdd, removeReason }: RowActionsProps) {
  const lower = lowerFirst(name);
  const action = (label: string, icon: ReactNode, onClick: () => void, extra: Record<string, unknown> = {}) => (
    <button type="button" aria-label={label} title={label} onClick={onClick} className={iconButton} {...extra}>
      {icon}
    </button>
  );
  return (
    <div className="ml-auto flex items-center">
      <button
        type="button"
        aria-expanded={showFilters}
        aria-controls={showFilters ? filtersId : undefined}
        aria-label={`Filters of ${lower}${filterCount ? ` (${filterCount})` : ''}`}
        onClick={onToggleFilters}
        className={cn(iconButton, 'w-auto gap-1 px-2 text-xs font-medium', filterCount > 0 && 'text-indigo-800 dark:text-indigo-200')}
      >
        <Filter aria-hidden className="size-4" />
        {filterCount ? filterCount : null}
      </button>
      {action(`Rename ${lower}`, <Pencil aria-hidden className="size-4" />, onRename, { id: renameId })}
      {action(`Move ${lower} up`, <ArrowUp aria-hidden className="size-4" />, () => onMove(index - 1), { disabled: index === 0 })}
      {action(`Move ${lower} down`, <ArrowDown aria-hidden className="size-4" />, () => onMove(index + 1), { disabled: index === count - 1 })}
      {action(`Duplicate ${lower}`, <Copy aria-hidden className="size-4" />, onDuplicate, { disabled: !canAdd })}
      {action(`Remove ${lower}`, <Trash2 aria-hidden className="size-4" />, onRemove, {
        disabled: count <= 1,
        'aria-describedby': count <= 1 ? reasonId : undefined,
        title: count <= 1 ? removeReason : `Remove ${lower}`,
      })}
      {count <= 1 ? <span id={reasonId} className="sr-only">{removeReason}</span> : null}
    </div>
  );
}

/** Inline name: Enter or leaving the field keeps it, Escape drops the change. */
function RenameInput({ name, initial, onDone }: { name: string; initial: string; onDone: (text: string | undefined) => void }) {
  const [text, setText] = useState(initial);
  const finished = useRef(false);
  const finish = (value: string | undefined) => {
    if (finished.current) return;
    finished.current = true;
    onDone(value);
  };
  return (
    <input
      type="text"
      aria-label={`${name} name`}
      // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the Rename button: typing starts here
      autoFocus
      value={text}
      placeholder="Name shown in the legend"
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') { e.preventDefault(); finish(text); }
        if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); finish(undefined); }
      }}
      onBlur={() => finish(text)}
      className="h-8 w-full max-w-sm rounded-md border border-gray-300 bg-white px-2.5 text-sm text-gray-900 dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100"
    />
  );
}

/** A new event: a name saved with the old one no longer applies. */
function withEvent(entry: EntityInput, id: string | null): EntityInput {
  const { name: _stale, ...rest } = entry;
  return { ...rest, id };
}

function withMath(entry: EntityInput, math: MathType): EntityInput {
  if (isPropertyMath(math)) return { ...entry, math };
  const { math_property: _dropped, ...rest } = entry;
  return { ...rest, math };
}

function hasFilters(entry: EntityInput): boolean {
  return countFilters(entry) > 0;
}

function countFilters(entry: EntityInput): number {
  const props = entry.properties as { values?: unknown[] } | unknown[] | null | undefined;
  const values = Array.isArray(props) ? props : props?.values ?? [];
  return values.reduce<number>((n, v) => n + (typeof v === 'object' && v !== null && 'values' in v && Array.isArray(v.values) ? v.values.length : 1), 0);
}
