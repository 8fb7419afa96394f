import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

const inputClasses =
  'block w-full rounded-md border bg-white px-3 py-2 text-sm text-gray-900 placeholder:text-gray-500 dark:bg-gray-900 dark:text-gray-100 dark:placeholder:text-gray-400';

interface FieldProps {
  label: string;
  error?: string | undefined;
  description?: ReactNode;
}

/** What a control needs to be announced with its label, description and error. */
interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  className: string;
}

/** Label above, description and error below, all tied to the control by id. */
function LabelledField({
  label,
  error,
  description,
  className,
  id: givenId,
  control,
}: FieldProps & {
  className?: string | undefined;
  id?: string | undefined;
  control: (props: ControlProps) => ReactNode;
}) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const describedBy = [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {control({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
        className: cn(
          inputClasses,
          error ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
        ),
      })}
      {description ? (
        <p id={descriptionId} className="text-sm text-gray-600 dark:text-gray-400">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled text input whose error and description are announced with it. */
export function TextField({
  label,
  error,
  description,
  className,
  id,
  ...props
}: FieldProps & ComponentProps<'input'>) {
  return (
    <LabelledField
      {...{ label, error, description, className, id }}
      control={(control) => <input {...control} {...props} />}
    />
  );
}

interface CheckboxFieldProps extends Omit<ComponentProps<'input'>, 'id' | 'type'> {
  label: string;
  description?: ReactNode;
  error?: string | undefined;
}

/** A native checkbox with its label and an optional description. */
export function CheckboxField({ label, description, error, className, ...props }: CheckboxFieldProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  return (
    <div className={cn('flex items-start gap-3', className)}>
      <input
        id={id}
        type="checkbox"
        aria-describedby={description ? descriptionId : undefined}
        aria-invalid={error ? true : undefined}
        className="mt-0.5 size-4 rounded border-gray-400 accent-indigo-600"
        {...props}
      />
      <div className="text-sm">
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-gray-600 dark:text-gray-400">
            {description}
          </p>
        ) : null}
        {error ? <p className="text-red-700 dark:text-red-300">{error}</p> : null}
      </div>
    </div>
  );
}

/** A labelled native select whose error and description are announced with it. */
export function SelectField({
  label,
  error,
  description,
  className,
  id,
  children,
  ...props
}: FieldProps & ComponentProps<'select'>) {
  return (
    <LabelledField
      {...{ label, error, description, className, id }}
      control={(control) => (
        <select {...control} {...props}>
          {children}
        </select>
      )}
    />
  );
}

/** A labelled textarea whose error and description are announced with it. */
export function TextareaField({
  label,
  error,
  description,
  className,
  id,
  ...props
}: FieldProps & ComponentProps<'textarea'>) {
  return (
    <LabelledField
      {...{ label, error, description, className, id }}
      control={(control) => <textarea {...control} {...props} />}
    />
  );
}

/** A form-level error (one that belongs to no single field). */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {message}
    </p>
  );
}
