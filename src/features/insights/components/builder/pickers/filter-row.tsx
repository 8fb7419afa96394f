import { X } from 'lucide-react';
import { PROPERTY_OPERATORS, type PropertyOperator } from '@/contract/analytics-params';
import { cn } from '@/components/ui/cn';
import {
  COHORT_OPERATOR_WORDS,
  OPERATOR_WORDS,
  valueForOperator,
  type CohortOperator,
  type FilterRow,
} from './filter-model';
import { lowerFirst } from './labels';
import { FieldError, useErrorId } from './picker-trigger';
import { HogqlField } from '../field-parts';
import {
  PropertyKeyPicker,
  type CohortKey,
  type GroupKey,
  type HogqlKey,
  type PropertyKey,
  type SessionKey,
} from './property-key-picker';
import { PropertyValueInput } from './property-value-input';

const FILTER_KINDS = ['event', 'person', 'session', 'group', 'cohort', 'hogql'] as const;
type FilterKey = PropertyKey | CohortKey | GroupKey | SessionKey | HogqlKey;
/** Session properties that are numbers: a new filter on one starts at "greater than". */
const NUMERIC_SESSION = ['$session_duration', '$pageview_count'];

/** The picker's value of a row with a key. */
const keyOfRow = (row: FilterRow & { key: string }): FilterKey =>
  row.type === 'group'
    ? { key: row.key, type: 'group', group_type_index: row.group_type_index ?? 0 }
    : ({ key: row.key, type: row.type } as PropertyKey | CohortKey | SessionKey | HogqlKey);

interface FilterRowEditorProps {
  projectId: number;
  row: FilterRow;
  onChange: (next: FilterRow) => void;
  onRemove: () => void;
  /** "Filter 1", "Group 2 filter 1": the start of every control's name. */
  name: string;
  eventNames?: readonly string[] | undefined;
  /** The error of one field of this filter as the API reported it (`key`, `operator`, `value`, `type`). */
  errorOf: (field: string) => string | undefined;
  /** Open the key list at once (a row just added). */
  fresh?: boolean;
}

/** One filter: property key, operator in words, value (none for is set / is not set), remove; a HogQL filter is its expression. */
export function FilterRowEditor({
  projectId,
  row,
  onChange,
  onRemove,
  name,
  eventNames,
  errorOf,
  fresh,
}: FilterRowEditorProps) {
  const operatorError = errorOf('operator');
  const { errorId, describedBy } = useErrorId(operatorError);
  const keyError = errorOf('key') ?? errorOf('type');
  return (
    <div className="flex flex-wrap items-start gap-1.5">
      <PropertyKeyPicker<FilterKey>
        projectId={projectId}
        value={row.key === null ? null : keyOfRow({ ...row, key: row.key })}
        onChange={(k) => {
          const index = k.type === 'group' ? k.group_type_index : undefined;
          const same = k.key === row.key && k.type === row.type && index === row.group_type_index;
          // A cohort is matched by membership (in / not in); a property by a property operator.
          const fromOther = row.type === 'cohort' || (k.type === 'session' && row.type !== 'session');
          const start = k.type === 'session' && NUMERIC_SESSION.includes(k.key) ? 'gt' : 'exact';
          const operator =
            k.type === 'cohort' ? (row.type === 'cohort' ? row.operator : 'in') : fromOther ? start : row.operator;
          if (k.type === 'hogql') {
            // The picker's entry turns the row into its expression field (kept when it is one already).
            onChange({
              ...row,
              key: row.type === 'hogql' && !k.key ? row.key : k.key,
              type: 'hogql',
              group_type_index: undefined,
              operator: 'exact',
              value: undefined,
            });
            return;
          }
          onChange({
            ...row,
            key: k.key,
            type: k.type,
            group_type_index: index,
            operator,
            value: same ? row.value : undefined,
          });
        }}
        label={`${name} property`}
        types={FILTER_KINDS}
        eventNames={eventNames}
        // A HogQL filter's error shows under its expression.
        error={row.type === 'hogql' ? undefined : keyError}
        defaultOpen={fresh}
      />
      {row.type === 'hogql' ? null : (
        <div className="flex flex-col gap-1">
          <select
            aria-label={`${name} operator`}
            aria-describedby={describedBy}
            aria-invalid={operatorError ? true : undefined}
            value={row.operator}
            onChange={(e) => {
              if (row.type === 'cohort') {
                onChange({ ...row, operator: e.target.value as CohortOperator });
                return;
              }
              const operator = e.target.value as PropertyOperator;
              onChange({ ...row, operator, value: valueForOperator(row.value, operator) });
            }}
            className={cn(
              'h-8 rounded-md border bg-white px-2 text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100',
              operatorError ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
            )}
          >
            {row.type === 'cohort'
              ? (Object.entries(COHORT_OPERATOR_WORDS) as [CohortOperator, string][]).map(([op, words]) => (
                  <option key={op} value={op}>
                    {words}
                  </option>
                ))
              : PROPERTY_OPERATORS.map((op) => (
                  <option key={op} value={op}>
                    {OPERATOR_WORDS[op]}
                  </option>
                ))}
          </select>
          <FieldError id={errorId} message={operatorError} />
        </div>
      )}
      {row.key !== null && row.type !== 'cohort' && row.type !== 'hogql' ? (
        <PropertyValueInput
          projectId={projectId}
          // A session property's values are typed (the server keeps no list of them).
          property={
            row.type === 'session'
              ? { key: row.key, type: 'event' }
              : (keyOfRow({ ...row, key: row.key }) as PropertyKey | GroupKey)
          }
          operator={row.operator as PropertyOperator}
          value={row.value}
          onChange={(value) => onChange({ ...row, value })}
          label={`${name} value`}
          eventName={eventNames?.length === 1 ? eventNames[0] : undefined}
          error={errorOf('value')}
        />
      ) : null}
      <button
        type="button"
        aria-label={`Remove ${lowerFirst(name)}`}
        onClick={onRemove}
        className="inline-flex size-8 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100"
      >
        <X aria-hidden className="size-4" />
      </button>
      {row.type === 'hogql' ? (
        // On a line of its own under the picker and the remove button: an expression needs the width.
        <HogqlField
          label={`${name} HogQL expression`}
          hideLabel
          className="basis-full"
          value={row.key ?? ''}
          error={keyError}
          placeholder="properties.$browser = 'Chrome'"
          hint="A condition, e.g. properties.$current_url like '%/pricing%'."
          onChange={(key) => onChange({ ...row, key })}
        />
      ) : null}
    </div>
  );
}
