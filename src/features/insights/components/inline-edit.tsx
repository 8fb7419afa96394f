import { Pencil } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import { describeError } from '@/lib/error-messages';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';

interface InlineEditProps {
  /** The field's name: "Name" → the "Edit name" button and the "Name" input. */
  label: string;
  value: string;
  /** What is shown when not editing (the h1, a paragraph). */
  children: ReactNode;
  onSave: (value: string) => Promise<unknown>;
  multiline?: boolean;
  disabled?: boolean;
}

/** Shows a value with an "Edit <label>" button; editing is a labelled input (Enter saves, Escape cancels). */
export function InlineEdit({ label, value, children, onSave, multiline = false, disabled = false }: InlineEditProps) {
  const [draft, setDraft] = useState<string | null>(null);
  // When an edit ends (saved or cancelled) with focus still in its form (or nowhere), focus goes
  // back to the Edit button, not to the page's start; once, and not if the user has moved on
  // (clicked another field while the save was on its way).
  const form = useRef<HTMLFormElement>(null);
  const refocus = useRef(false);
  const end = () => {
    const active = document.activeElement;
    refocus.current = !active || active === document.body || Boolean(form.current?.contains(active));
    setDraft(null);
  };
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  if (draft === null) {
    return (
      <div className="flex min-w-0 items-start gap-2">
        <div className="min-w-0">{children}</div>
        <Button variant="ghost" size="sm" aria-label={`Edit ${label.toLowerCase()}`} disabled={disabled} onClick={() => setDraft(value)}
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

  const cancel = () => {
    setError(null);
    end();
  };
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await onSave(draft.trim());
      end();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setSaving(false);
    }
  };
  const inputClasses = cn(
    'block w-full max-w-xl rounded-md border bg-white px-3 py-2 text-sm dark:bg-gray-900',
    error ? 'border-red-600' : 'border-gray-300 dark:border-gray-600',
  );
  const common = {
    id,
    value: draft,
    // Opened by the user's click to be typed in.
    autoFocus: true,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    className: inputClasses,
    onChange: (event: { target: { value: string } }) => setDraft(event.target.value),
    onKeyDown: (event: React.KeyboardEvent) => {
      if (event.key === 'Escape') cancel();
      if (event.key === 'Enter' && (!multiline || event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        void save();
      }
    },
  };
  return (
    <form
      ref={form}
      className="w-full max-w-xl space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {multiline ? <textarea rows={3} {...common} /> : <input type="text" {...common} />}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
        <Button size="sm" onClick={cancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
