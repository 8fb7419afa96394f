import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

interface FieldsetProps {
  legend: string;
  children: ReactNode;
  /** A framed group with a visible legend (long forms), or a plain one whose legend only screen readers hear. */
  framed?: boolean;
  /** Disables every control inside (e.g. the key lacks the scope to change them). */
  disabled?: boolean;
}

/** A group of related fields, named by its legend. */
export function Fieldset({ legend, children, framed = true, disabled = false }: FieldsetProps) {
  return (
    <fieldset
      disabled={disabled}
      className={cn('space-y-4', framed && 'rounded-lg border border-gray-200 p-4 dark:border-gray-800')}
    >
      <legend className={framed ? 'px-1 text-base font-semibold' : 'sr-only'}>{legend}</legend>
      {children}
    </fieldset>
  );
}
