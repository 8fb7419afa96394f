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
  // What is typed, with the state's value it stands for (a broken entry: the value it was typed over).
  const [typed, setTyped] = useState<{ text: string; value: number } | null>(null);
  // The state moved on its own (Back, Forward, a reset): what was typed no longer stands, the box
  // shows the state (else it would show a number the builder does not use).
  if (typed !== null && typed.value !== value) setTyped(null);
  const draft = typed !== null && typed.value === value ? typed.text : null;
  const text = draft ?? String(value);
  const broken =
    draft !== null && !/^\d+$/.test(draft.trim()) ? `Enter a whole number from ${min} to ${max}.` : undefined;
  const message = broken ?? error;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
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
          const whole = /^\d+$/.test(next.trim());
          setTyped({ text: next, value: whole ? Number(next) : value });
          if (whole) onChange(Number(next));
        }}
        onBlur={() => {
          if (draft !== null && /^\d+$/.test(draft.trim())) setTyped(null);
        }}
      />
      <FieldMessage id={`${id}-message`} error={message} hint={hint} />
    </div>
  );
}
