import { X } from 'lucide-react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { OPERATOR_WORDS, PROPERTY_OPERATORS, VALUELESS_OPERATORS } from '@/contract/analytics-filters';
import { COHORT_TIME_INTERVALS, type CohortTimeInterval } from '@/contract/cohorts';
import { SelectField, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import type { CriterionField, CriterionKind } from './cohort-criteria';
import type { NewCohortDraft, NewCohortValues } from './new-cohort-values';

const KIND_WORDS: Record<CriterionKind, string> = {
  person: 'Has person property',
  performed: 'Did event',
  not_performed: 'Did not do event',
};
const UNIT_WORDS: Record<CohortTimeInterval, string> = {
  hour: 'hours',
  day: 'days',
  week: 'weeks',
  month: 'months',
  year: 'years',
};

interface CriterionRowFieldsProps {
  form: UseFormReturn<NewCohortValues, unknown, NewCohortDraft>;
  index: number;
  onRemove: () => void;
}

/** One criterion: its kind, then a person property's key, operator and value, or an event, a count and a window. */
export function CriterionRowFields({ form, index, onRemove }: CriterionRowFieldsProps) {
  const name = `Criterion ${index + 1}`;
  const [kind, operator] = useWatch({ control: form.control, name: [`rows.${index}.kind`, `rows.${index}.operator`] });
  const errors = form.formState.errors.rows?.[index];
  const field = (f: CriterionField) => ({ ...form.register(`rows.${index}.${f}`), error: errors?.[f]?.message });
  return (
    <li className="flex flex-wrap items-start gap-3 rounded-md border border-gray-200 p-3 dark:border-gray-800">
      <SelectField label={`${name}: kind`} {...form.register(`rows.${index}.kind`)}>
        {Object.entries(KIND_WORDS).map(([k, words]) => (
          <option key={k} value={k}>
            {words}
          </option>
        ))}
      </SelectField>
      {kind === 'person' ? (
        <>
          <TextField label={`${name}: property`} placeholder="plan" autoComplete="off" {...field('key')} />
          <SelectField label={`${name}: operator`} {...field('operator')}>
            {PROPERTY_OPERATORS.map((op) => (
              <option key={op} value={op}>
                {OPERATOR_WORDS[op]}
              </option>
            ))}
          </SelectField>
          {VALUELESS_OPERATORS.includes(operator) ? null : (
            <TextField label={`${name}: value`} autoComplete="off" {...field('value')} />
          )}
        </>
      ) : (
        <>
          <TextField label={`${name}: event`} placeholder="purchase" autoComplete="off" {...field('key')} />
          {kind === 'performed' ? (
            <TextField label={`${name}: at least (times)`} className="w-32" inputMode="numeric" {...field('count')} />
          ) : null}
          <TextField label={`${name}: in the last`} className="w-28" inputMode="numeric" {...field('within')} />
          <SelectField label={`${name}: unit`} {...field('unit')}>
            {COHORT_TIME_INTERVALS.map((u) => (
              <option key={u} value={u}>
                {UNIT_WORDS[u]}
              </option>
            ))}
          </SelectField>
        </>
      )}
      <Button variant="ghost" className="mt-6" onClick={onRemove} aria-label={`Remove ${name.toLowerCase()}`}>
        <X aria-hidden="true" className="size-4" />
      </Button>
    </li>
  );
}
