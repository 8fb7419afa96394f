import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { VALUELESS_OPERATORS, type PropertyOperator } from '@/contract/analytics-params';
import { cn } from '@/components/ui/cn';
import { definitionQueries } from '../../../api/definitions.queries';
import { FieldError, useErrorId } from './picker-trigger';
import type { GroupKey, PropertyKey } from './property-key-picker';
import { useDebounced } from './use-debounced';
import { ValueChipsPicker, type ScalarValue } from './value-chips-picker';

export interface PropertyValueInputProps {
  projectId: number;
  /** Whose property: an event's or person's values are suggested; a group's are typed. */
  property: PropertyKey | GroupKey;
  operator: PropertyOperator;
  value: unknown;
  onChange: (value: unknown) => void;
  label: string;
  /** Suggest only values seen on this event. */
  eventName?: string | undefined;
  error?: string | undefined;
}

const inputClasses =
  'h-8 w-full min-w-0 rounded-md border bg-white px-2.5 text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100';

const isScalar = (v: unknown): v is ScalarValue =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The value(s) of a filter as a list (exact / is_not take several). */
export function valueList(value: unknown): ScalarValue[] {
  if (Array.isArray(value)) return value.filter(isScalar);
  return isScalar(value) && value !== '' ? [value] : [];
}

/** One value as text (contains, regex, greater than…): the first of a list. */
export function valueText(value: unknown): string {
  const [first] = valueList(value);
  return first === undefined ? '' : String(first);
}

/**
 * The value part of a filter, by operator: several values as chips with suggestions (equals,
 * doesn't equal), one text (contains, regex), one number (greater/less than), nothing (is set).
 */
export function PropertyValueInput({
  projectId,
  property,
  operator,
  value,
  onChange,
  label,
  eventName,
  error,
}: PropertyValueInputProps) {
  const { errorId, describedBy } = useErrorId(error);
  if (VALUELESS_OPERATORS.includes(operator)) return null;
  // A group's values are suggested from its type's groups; typed text searches events' values only.
  const listed: PropertyKey | null = property.type === 'group' ? null : property;
  let control;
  if (operator === 'exact' || operator === 'is_not') {
    control = (
      <ValueChipsPicker
        projectId={projectId}
        property={property}
        values={valueList(value)}
        onChange={(next) => onChange(next.length ? next : undefined)}
        label={label}
        eventName={eventName}
        describedBy={describedBy}
        invalid={Boolean(error)}
      />
    );
  } else if (operator === 'gt' || operator === 'lt') {
    control = (
      <NumberValue value={value} onChange={onChange} label={label} describedBy={describedBy} invalid={Boolean(error)} />
    );
  } else {
    control = (
      <TextValue
        projectId={projectId}
        property={listed ?? { key: property.key, type: 'event' }}
        suggest={listed !== null && (operator === 'icontains' || operator === 'not_icontains')}
        value={valueText(value)}
        onChange={(text) => onChange(text === '' ? undefined : text)}
        label={label}
        eventName={eventName}
        describedBy={describedBy}
        invalid={Boolean(error)}
      />
    );
  }
  return (
    <div className="flex min-w-0 flex-col gap-1">
      {control}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

interface ControlProps {
  label: string;
  describedBy: string | undefined;
  invalid: boolean;
}

/** A number; what is typed stays as typed, the value is emitted only when it is a number. */
function NumberValue({
  value,
  onChange,
  label,
  describedBy,
  invalid,
}: ControlProps & { value: unknown; onChange: (v: unknown) => void }) {
  const outside = valueText(value);
  const [text, setText] = useState(outside);
  const [seen, setSeen] = useState(outside);
  if (seen !== outside) {
    // The value changed from outside (not by typing here): show it, unless it is what is typed.
    setSeen(outside);
    if (!(text.trim() !== '' && Number(text) === Number(outside))) setText(outside);
  }
  return (
    <input
      type="number"
      inputMode="decimal"
      aria-label={label}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        const n = Number(next);
        onChange(next.trim() === '' || Number.isNaN(n) ? undefined : n);
      }}
      placeholder="Number"
      className={cn(
        inputClasses,
        'w-32',
        invalid ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
      )}
    />
  );
}

/** One text, with the property's values offered as suggestions (contains) or none (regex). */
function TextValue({
  projectId,
  property,
  suggest,
  value,
  onChange,
  label,
  eventName,
  describedBy,
  invalid,
}: ControlProps & {
  projectId: number;
  property: PropertyKey;
  suggest: boolean;
  value: string;
  onChange: (text: string) => void;
  eventName?: string | undefined;
}) {
  const listId = useId();
  const [focused, setFocused] = useState(false);
  const debounced = useDebounced(value);
  const query = useQuery({
    ...definitionQueries.values(projectId, { key: property.key, type: property.type, search: debounced, eventName }),
    enabled: suggest && focused && property.key !== '',
  });
  return (
    <>
      <input
        type="text"
        aria-label={label}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        list={suggest ? listId : undefined}
        value={value}
        onFocus={() => setFocused(true)}
        onChange={(e) => onChange(e.target.value)}
        placeholder={suggest ? 'Text' : 'Regular expression'}
        className={cn(
          inputClasses,
          'w-48',
          invalid ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
        )}
      />
      {suggest ? (
        <datalist id={listId}>
          {(query.data ?? []).map((s) => (
            <option key={String(s.name)} value={String(s.name)} />
          ))}
        </datalist>
      ) : null}
    </>
  );
}
