import { Plus, X } from 'lucide-react';
import { useId } from 'react';
import { ANALYTICS_LIMITS } from '@/contract/analytics-limits';
import { Button } from '@/components/ui/button';
import { FieldMessage, inputClasses } from './field-parts';

interface FormulaListProps {
  /** The formulas as typed; one (maybe empty) at least. */
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** The series letters in use (A, B, …). */
  letters: readonly string[];
  /** The error of formula `index`. */
  errorAt: (index: number) => string | undefined;
}

/**
 * Formulas over the series letters (`A / B * 100`), each a series of the chart, checked by the
 * contract as they are typed. The first is always there (empty: the series as they are); more
 * are added once it has something.
 */
export function FormulaList({ value, onChange, letters, errorAt }: FormulaListProps) {
  const id = useId();
  const list = value.length > 0 ? value : [''];
  const hint =
    letters.length > 1
      ? `Series ${letters.join(', ')}; + - * / % and parentheses. Empty: each series on its own.`
      : 'Series A; + - * / % and parentheses. Empty: the series as it is.';
  const set = (index: number, text: string) => onChange(list.map((f, i) => (i === index ? text : f)));
  return (
    <div className="space-y-2">
      {list.map((formula, index) => {
        const label = index === 0 ? 'Formula' : `Formula ${index + 1}`;
        const error = errorAt(index);
        return (
          <div key={index} className="space-y-1.5">
            <label htmlFor={`${id}-${index}`} className="block text-sm font-medium">
              {label}
            </label>
            <div className="flex items-start gap-2">
              <input
                id={`${id}-${index}`}
                className={inputClasses(Boolean(error), 'font-mono')}
                value={formula}
                placeholder="e.g. A / B * 100"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-${index}-message`}
                onChange={(e) => set(index, e.target.value)}
              />
              {list.length > 1 ? (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${label.toLowerCase()}`}
                  onClick={() => onChange(list.filter((_, i) => i !== index))}
                >
                  <X aria-hidden="true" className="size-4" />
                </Button>
              ) : null}
            </div>
            <FieldMessage id={`${id}-${index}-message`} error={error} hint={index === 0 ? hint : undefined} />
          </div>
        );
      })}
      {list[0]!.trim() !== '' && list.length < ANALYTICS_LIMITS.formulas ? (
        <Button size="sm" onClick={() => onChange([...list, ''])}>
          <Plus aria-hidden="true" className="size-4" />
          Add a formula
        </Button>
      ) : null}
    </div>
  );
}
