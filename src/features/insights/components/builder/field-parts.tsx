import { useId } from 'react';
import { cn } from '@/components/ui/cn';

/** A native select's look in the builder's controls column (error state in red). */
export function selectClasses(invalid = false, className?: string): string {
  return cn(
    'block h-9 rounded-md border bg-white px-2.5 text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100',
    invalid ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
    className,
  );
}

/** A text input's look in the builder's controls column. */
export function inputClasses(invalid = false, className?: string): string {
  return cn(
    'block h-9 w-full rounded-md border bg-white px-3 text-sm text-gray-900 placeholder:text-gray-500 dark:bg-gray-900 dark:text-gray-100 dark:placeholder:text-gray-400',
    invalid ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
    className,
  );
}

/** The error (red) or hint (grey) under a control, tied to it by `id` (aria-describedby). */
export function FieldMessage({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | undefined;
  hint?: string | undefined;
}) {
  if (error)
    return (
      <p id={id} className="text-sm text-red-700 dark:text-red-300">
        {error}
      </p>
    );
  if (hint)
    return (
      <p id={id} className="text-sm text-gray-600 dark:text-gray-400">
        {hint}
      </p>
    );
  return null;
}

/** A titled section of the controls column. */
export function ControlSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section
      aria-label={title}
      className="space-y-3 border-t border-gray-200 pt-4 first:border-t-0 first:pt-0 dark:border-gray-800"
    >
      <h2 className="text-sm font-semibold tracking-wide text-gray-700 uppercase dark:text-gray-300">{title}</h2>
      {children}
    </section>
  );
}

export interface HogqlFieldProps {
  /** The field's name, e.g. "Filter 1 HogQL expression". */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The server's 400 for this expression (docs/hogql.md: it names the token). */
  error?: string | undefined;
  hint?: string | undefined;
  placeholder?: string | undefined;
  /** Keep the name for screen readers only (a field inside a row that already says what it is). */
  hideLabel?: boolean;
  className?: string | undefined;
}

/** A HogQL expression (docs/hogql.md): monospace, with the server's error or a hint under it. */
export function HogqlField({
  label,
  value,
  onChange,
  error,
  hint,
  placeholder,
  hideLabel = false,
  className,
}: HogqlFieldProps) {
  const id = useId();
  return (
    <div className={cn('min-w-0 space-y-1', className)}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'block text-sm font-medium'}>
        {label}
      </label>
      <input
        id={id}
        className={inputClasses(Boolean(error), 'font-mono')}
        value={value}
        spellCheck={false}
        autoComplete="off"
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-message` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldMessage id={`${id}-message`} error={error} hint={hint} />
    </div>
  );
}
