import { ArrowDown, ArrowUp, Copy, Filter, Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import type { EntityInput, MathType } from '@/contract/analytics-params';
import { SortableItem } from '@/components/sortable/sortable-list';
import { cn } from '@/components/ui/cn';
import { HogqlField } from '../field-parts';
import { EventPicker } from './event-picker';
import { lowerFirst } from './labels';
import { COUNT_MATHS, isPropertyMath, mathLabel, MATH_WORDS, PROPERTY_MATHS } from './math-options';
import type { ActorWords } from '../../../lib/actor-words';
import { FieldError, useErrorId } from './picker-trigger';
import { PropertyFilters, type ErrorFor } from './property-filters';
import { PropertyKeyPicker } from './property-key-picker';
import { countFilters, eventName, RenameInput, RowIconButton, withEvent, withMath } from './series-row-parts';

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
  /** What unique and active maths count (persons unless aggregated by a group type). */
  actors: ActorWords;
  onRemove: () => void;
  onDuplicate: () => void;
  onMove: (to: number) => void;
  canAdd: boolean;
  removeReason: string;
  errorFor?: ErrorFor | undefined;
}

/**
 * One series (or funnel step). First line: handle, letter, event, move up/down, remove. Second
 * line: maths (trends) and the property they need, filters, rename, duplicate. Then its filters.
 */
export function SeriesRow(p: SeriesRowProps) {
  const { entry, index, name, errorFor, count } = p;
  const [showFilters, setShowFilters] = useState(() => countFilters(entry) > 0);
  const [renaming, setRenaming] = useState(false);
  const filtersId = useId();
  const reasonId = useId();
  const renameId = useId();
  const err = (field: string) => errorFor?.(`events__${index}__${field}`);
  const mathError = useErrorId(err('math'));
  const event = eventName(entry.id);
  const math = (entry.math ?? 'total') as MathType;
  const filterCount = countFilters(entry);
  const lower = lowerFirst(name);

  return (
    <SortableItem
      id={p.uid}
      handleLabel={`Reorder ${lower}`}
      className="rounded-lg border border-gray-200 bg-white p-2 dark:border-gray-700 dark:bg-gray-950"
      draggingClassName="relative z-10 shadow-lg"
    >
      {(handle) => (
        <>
          <div className="flex items-start gap-1">
            {handle}
            <span
              aria-hidden
              className="inline-flex h-8 min-w-8 shrink-0 items-center justify-center rounded-md bg-indigo-100 px-1.5 text-xs font-bold text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100"
            >
              {p.badge}
            </span>
            <div className="flex min-w-0 flex-1 flex-col gap-1.5">
              <div className="flex min-w-0 items-start gap-0.5">
                <div className="min-w-0 flex-1">
                  <EventPicker
                    projectId={p.projectId}
                    value={event}
                    onChange={(id) => p.onChange(withEvent(entry, id))}
                    label={`${name} event`}
                    allowAll={p.mode === 'trends'}
                    error={err('id')}
                  />
                </div>
                <RowIconButton label={`Move ${lower} up`} disabled={index === 0} onClick={() => p.onMove(index - 1)}>
                  <ArrowUp aria-hidden className="size-4" />
                </RowIconButton>
                <RowIconButton
                  label={`Move ${lower} down`}
                  disabled={index === count - 1}
                  onClick={() => p.onMove(index + 1)}
                >
                  <ArrowDown aria-hidden className="size-4" />
                </RowIconButton>
                <RowIconButton
                  label={`Remove ${lower}`}
                  disabled={count <= 1}
                  aria-describedby={count <= 1 ? reasonId : undefined}
                  title={count <= 1 ? p.removeReason : undefined}
                  onClick={p.onRemove}
                >
                  <Trash2 aria-hidden className="size-4" />
                </RowIconButton>
                {count <= 1 ? (
                  <span id={reasonId} className="sr-only">
                    {p.removeReason}
                  </span>
                ) : null}
              </div>
              {renaming ? (
                <RenameInput
                  name={name}
                  initial={entry.custom_name ?? ''}
                  onDone={(text) => {
                    setRenaming(false);
                    document.getElementById(renameId)?.focus();
                    if (text !== undefined)
                      p.onChange({ ...entry, custom_name: text.trim() === '' ? null : text.trim() });
                  }}
                />
              ) : entry.custom_name ? (
                // Ends in "…" at the row's width: sized from the row (w-0 min-w-full), a long name does
                // not widen the form, nor the page on a phone.
                <span
                  className="block w-0 min-w-full truncate text-sm font-semibold text-gray-900 dark:text-gray-100"
                  title={entry.custom_name}
                >
                  {entry.custom_name}
                </span>
              ) : null}
              <div className="flex flex-wrap items-start gap-1.5">
                {p.mode === 'trends' ? (
                  <div className="flex min-w-0 flex-col gap-1">
                    <select
                      aria-label={`${name} math`}
                      aria-describedby={mathError.describedBy}
                      aria-invalid={err('math') ? true : undefined}
                      value={math}
                      onChange={(e) => p.onChange(withMath(entry, e.target.value as MathType))}
                      className={cn(
                        'h-8 max-w-full rounded-md border bg-white px-2 text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100',
                        err('math') ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
                      )}
                    >
                      {COUNT_MATHS.map((m) => (
                        <option key={m} value={m}>
                          {mathLabel(m, p.actors)}
                        </option>
                      ))}
                      <optgroup label="Of a numeric property">
                        {PROPERTY_MATHS.map((m) => (
                          <option key={m} value={m}>
                            {MATH_WORDS[m]}
                          </option>
                        ))}
                      </optgroup>
                      <option value="hogql">{MATH_WORDS.hogql}</option>
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
                {p.mode === 'trends' && math === 'hogql' ? (
                  <HogqlField
                    label={`${name} HogQL expression`}
                    hideLabel
                    className="min-w-48 flex-1"
                    value={entry.math_hogql ?? ''}
                    error={err('math_hogql')}
                    placeholder="sum(properties.price)"
                    hint="A number from aggregates, e.g. count() / uniq(person_id)."
                    onChange={(text) => p.onChange({ ...entry, math_hogql: text })}
                  />
                ) : null}
                <div className="ml-auto flex items-center">
                  <RowIconButton
                    label={`Filters of ${lower}${filterCount ? ` (${filterCount})` : ''}`}
                    aria-expanded={showFilters}
                    aria-controls={showFilters ? filtersId : undefined}
                    onClick={() => setShowFilters((v) => !v)}
                    className={cn(
                      'w-auto gap-1 px-1.5 text-xs font-medium',
                      (filterCount > 0 || showFilters) && 'text-indigo-800 dark:text-indigo-200',
                    )}
                  >
                    <Filter aria-hidden className="size-4" />
                    {filterCount ? filterCount : null}
                  </RowIconButton>
                  <RowIconButton label={`Rename ${lower}`} id={renameId} onClick={() => setRenaming(true)}>
                    <Pencil aria-hidden className="size-4" />
                  </RowIconButton>
                  <RowIconButton label={`Duplicate ${lower}`} disabled={!p.canAdd} onClick={p.onDuplicate}>
                    <Copy aria-hidden className="size-4" />
                  </RowIconButton>
                </div>
              </div>
            </div>
          </div>
          {showFilters ? (
            <div id={filtersId} className="mt-2 border-t border-gray-100 pt-2 dark:border-gray-800">
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
        </>
      )}
    </SortableItem>
  );
}
