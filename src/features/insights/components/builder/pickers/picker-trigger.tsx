import { ChevronDown } from 'lucide-react';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

interface PickerTriggerProps extends Omit<ComponentProps<'button'>, 'children'> {
  /** Its accessible name says what it chooses and what is chosen: "Series A event: Pageview". */
  'aria-label': string;
  children: ReactNode;
  invalid?: boolean;
  placeholder?: boolean;
}

/** The button a picker opens from: the chosen thing in words, a chevron, red when in error. */
export function PickerTrigger({ className, invalid, placeholder, children, ref, ...props }: PickerTriggerProps) {
  return (
    <button
      ref={ref}
      type="button"
      className={cn(
        'inline-flex h-8 max-w-full min-w-0 items-center justify-between gap-1.5 rounded-md border bg-white px-2.5 text-left text-sm font-medium',
        'hover:bg-gray-50 dark:bg-gray-900 dark:hover:bg-gray-800',
        invalid ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
        placeholder ? 'text-gray-600 dark:text-gray-400' : 'text-gray-900 dark:text-gray-100',
        className,
      )}
      {...props}
    >
      <span className="truncate">{children}</span>
      <ChevronDown aria-hidden className="size-4 shrink-0 text-gray-500" />
    </button>
  );
}

/** An error under a control, tied to it with `aria-describedby={id}`. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-xs text-red-700 dark:text-red-300">
      {message}
    </p>
  );
}

/** An id for a control's error, and the attributes that tie it to the control. */
export function useErrorId(error: string | undefined) {
  const id = useId();
  const errorId = `${id}-error`;
  return { errorId, describedBy: error ? errorId : undefined };
}
