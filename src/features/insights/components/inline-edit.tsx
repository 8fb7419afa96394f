import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil } from 'lucide-react';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from '@/contract/z';
import { FormFooter, submitHandler, TextareaField, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';

type Values = Record<string, string>;

interface InlineEditProps {
  /** The field's name: "Name" → the "Edit name" button and the "Name" input. */
  label: string;
  /** The API's name of the field: a refusal whose `attr` names it goes under the input. */
  name: string;
  /** The contract's check of the (trimmed) value. */
  schema: z.ZodMiniType<string, string>;
  value: string;
  /** What is shown when not editing (the h1, a paragraph). */
  children: ReactNode;
  onSave: (value: string) => Promise<unknown>;
  multiline?: boolean;
  disabled?: boolean;
}

/** Shows a value with an "Edit <label>" button; editing is a labelled input (Enter saves, Escape cancels). */
export function InlineEdit({
  label,
  name,
  schema,
  value,
  children,
  onSave,
  multiline = false,
  disabled = false,
}: InlineEditProps) {
  const [editing, setEditing] = useState(false);
  // When an edit ends (saved or cancelled) with focus still in its form (or nowhere), focus goes
  // back to the Edit button, not to the page's start; once, and not if the user has moved on
  // (clicked another field while the save was on its way).
  const formRef = useRef<HTMLFormElement>(null);
  const refocus = useRef(false);
  const end = () => {
    const active = document.activeElement;
    refocus.current = !active || active === document.body || Boolean(formRef.current?.contains(active));
    setEditing(false);
  };

  if (!editing) {
    return (
      <div className="flex min-w-0 items-start gap-2">
        <div className="min-w-0">{children}</div>
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Edit ${label.toLowerCase()}`}
          disabled={disabled}
          onClick={() => setEditing(true)}
          ref={(button: HTMLButtonElement | null) => {
            if (!button || !refocus.current) return;
            refocus.current = false;
            button.focus();
          }}
        >
          <Pencil aria-hidden="true" className="size-4" />
        </Button>
      </div>
    );
  }
  return <InlineEditForm {...{ label, name, schema, value, multiline, formRef }} onSave={onSave} onEnd={end} />;
}

function InlineEditForm({
  label,
  name,
  schema,
  value,
  multiline,
  formRef,
  onSave,
  onEnd,
}: Omit<InlineEditProps, 'children' | 'disabled'> & {
  formRef: React.RefObject<HTMLFormElement | null>;
  onEnd: () => void;
}) {
  // Spaces around the value are not the user's mistake: trimmed before the contract's check.
  const [resolver] = useState(() =>
    zodResolver(z.object({ [name]: z.pipe(z.string().check(z.trim()), schema) }) as z.ZodMiniType<Values, Values>),
  );
  const form = useForm<Values>({ resolver, defaultValues: { [name]: value } });
  const onSubmit = submitHandler(form, [name], async (values) => {
    await onSave(values[name] ?? '');
    onEnd();
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const field = {
    label,
    // A refusal that names no field is still about this one: it shows under the input.
    error: errors[name]?.message ?? errors.root?.server?.message,
    // Opened by the user's click to be typed in.
    autoFocus: true,
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'Escape') onEnd();
      if (multiline && event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        void onSubmit();
      }
    },
    ...register(name),
  };
  return (
    <form ref={formRef} noValidate className="w-full max-w-xl space-y-2" onSubmit={onSubmit}>
      {multiline ? <TextareaField rows={3} {...field} /> : <TextField type="text" {...field} />}
      <FormFooter error={undefined} submitLabel="Save" pendingLabel="Saving…" isSubmitting={isSubmitting}>
        <Button onClick={onEnd}>Cancel</Button>
      </FormFooter>
    </form>
  );
}
