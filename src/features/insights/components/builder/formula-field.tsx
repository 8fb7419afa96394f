import { useId } from 'react';
import { FieldMessage, inputClasses } from './field-parts';

interface FormulaFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The series letters in use (A, B, …). */
  letters: readonly string[];
  error?: string | undefined;
}

/** A formula over the series letters (`A / B * 100`), checked by the contract as it is typed. */
export function FormulaField({ value, onChange, letters, error }: FormulaFieldProps) {
  const id = useId();
  const hint = letters.length > 1 ? `Series ${letters.join(', ')}; + - * / % and parentheses. Empty: each series on its own.` : 'Series A; + - * / % and parentheses. Empty: the series as it is.';
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">Formula</label>
      <input
        id={id}
        className={inputClasses(Boolean(error), 'font-mono')}
        value={value}
        placeholder="e.g. A / B * 100"
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-message`}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldMessage id={`${id}-message`} error={error} hint={hint} />
    </div>
  );
}
