import { X } from 'lucide-react';
import { PROPERTY_OPERATORS, type PropertyOperator } from '@/contract/analytics-params';
import { cn } from '@/components/ui/cn';
import { COHORT_OPERATOR_WORDS, OPERATOR_WORDS, valueForOperator, type CohortOperator, type FilterRow } from './filter-model';
import { lowerFirst } from './labels';
import { FieldError, useErrorId } from './picker-trigger';
import { PropertyKeyPicker, type CohortKey, type GroupKey, type PropertyKey } from './property-key-picker';

const FILTER_KINDS = ['event', 'person', 'group', 'cohort'] as const;
type FilterKey = PropertyKey | CohortKey | GroupKey;

/** The picker's value of a row with a key. */
const keyOfRow = (row: FilterRow & { key: string }): FilterKey => (row.type === 'group'
  ? { key: row.key, type: 'group', group_type_index: row.group_type_index ?? 0 }
  : { key: row.key, type: row.type } as PropertyKey | CohortKey);
import { PropertyValueInput } from './property-value-input';

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

/** One filter: property key, operator in words, value (none for is set / is not set), remove. */
export function FilterRowEditor({ projectId, row, onChange, onRemove, name, eventNames, errorOf, fresh }: FilterRowEditorProps) {
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
          const operator = k.type === 'cohort' ? (row.type === 'cohort' ? row.operator : 'in') : (row.type === 'cohort' ? 'exact' : row.operator);
          onChange({ ...row, key: k.key, type: k.type, group_type_index: index, operator, value: same ? row.value : undefined });
        }}
        label={`${name} property`}
        types={FILTER_KINDS}
        eventNames={eventNames}
        error={keyError}
        defaultOpen={fresh}
      />
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
            ? (Object.entries(COHORT_OPERATOR_WORDS) as [CohortOperator, string][]).map(([op, words]) => <option key={op} value={op}>{words}</option>)
            : PROPERTY_OPERATORS.map((op) => (
              <option key={op} value={op}>
                {OPERATOR_WORDS[op]}
              </option>
            ))}
        </select>
        <FieldError id={errorId} message={operatorError} />
      </div>
      {row.key !== null && row.type !== 'cohort' ? (
        <PropertyValueInput
          projectId={projectId}
          property={keyOfRow({ ...row, key: row.key }) as PropertyKey | GroupKey}
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
    </div>
  );
}
