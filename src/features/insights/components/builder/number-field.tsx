import { useId, useState } from 'react';
import { FieldMessage, inputClasses } from './field-parts';

interface NumberFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
  error?: string | undefined;
  hint?: string | undefined;
}

/**
 * A whole number typed freely: each whole number reaches the state (the contract says when it is
 * out of range); an empty or broken entry stays in the box with its message.
 */
export function NumberField({ label, value, min, max, onChange, error, hint }: NumberFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? String(value);
  const broken = draft !== null && !/^\d+$/.test(draft.trim()) ? `Enter a whole number from ${min} to ${max}.` : undefined;
  const message = broken ?? error;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        className={inputClasses(Boolean(message), 'w-28')}
        value={text}
        aria-invalid={message ? true : undefined}
        aria-describedby={message || hint ? `${id}-message` : undefined}
        onChange={(e) => {
          const next = e.target.value;
          setDraft(next);
          if (/^\d+$/.test(next.trim())) onChange(Number(next));
        }}
        onBlur={() => {
          if (draft !== null && /^\d+$/.test(draft.trim())) setDraft(null);
        }}
      />
      <FieldMessage id={`${id}-message`} error={message} hint={hint} />
    </div>
  );
}
