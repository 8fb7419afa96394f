import { Trash2 } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { Scope } from '@/contract/common';
import { describeError } from '@/lib/error-messages';
import { FormError, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, ConfirmDialogCancel } from '@/components/ui/dialog';
import { ScopedAction } from './scoped-action';

interface ConfirmDeleteProps {
  /** The danger button that opens the dialog ("Delete organization"). */
  triggerLabel: string;
  /**
   * The button's accessible name when its words alone don't say what it acts on (one in each row
   * of a table: "Remove Sofía García"); it begins with `triggerLabel`.
   */
  triggerName?: string;
  /** The scope deleting needs: without it the button is disabled with the reason. */
  scope: Scope;
  /** Why deleting is refused whatever the key (a level rule): the button is disabled with it. */
  refusal?: string | null;
  title: string;
  /** What goes with it, in words (role alertdialog announces it). */
  description: ReactNode;
  /** The button that deletes ("Delete", "Delete Nightly S3"). */
  confirmLabel: string;
  /**
   * The type-the-name variant: Delete stays disabled until this is typed (for what takes much
   * with it, like an organization). Without it, one click on the confirm button is enough.
   */
  typeToConfirm?: string;
  /**
   * Deletes, then leaves (toast, navigation, forgetting the cache). While it runs the button
   * says "Deleting…"; if it throws, the dialog stays open with the reason.
   */
  onConfirm: () => Promise<void>;
}

interface ConfirmActionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What it will do, in words (role alertdialog announces it). */
  description: ReactNode;
  /** The button that does it ("Delete Nightly S3", "Enforce Google sign-in"). */
  confirmLabel: string;
  /** The button's words while `onConfirm` runs. */
  pendingLabel?: string;
  /** Type-to-confirm: the button stays disabled until this is typed. */
  typeToConfirm?: string;
  /** Does it; if it throws, the dialog stays open with the reason. Closing on success is the caller's. */
  onConfirm: () => Promise<void>;
}

/**
 * The one confirm dialog of what cannot be taken back lightly, opened by whatever asks for it
 * (a delete button, a select whose new value would lock people out): the danger button, the
 * reason in the dialog if the server refuses, its pending words while it runs.
 */
export function ConfirmActionDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel = 'Saving…',
  typeToConfirm,
  onConfirm,
}: ConfirmActionDialogProps) {
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirmed = typeToConfirm === undefined || typed.trim() === typeToConfirm.trim();

  const changeOpen = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setTyped('');
      setError(null);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed || pending) return;
    setPending(true);
    setError(null);
    try {
      await onConfirm();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };

  return (
    <ConfirmDialog open={open} onOpenChange={changeOpen} title={title} description={description}>
      <form onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {typeToConfirm !== undefined ? (
          <TextField
            label={`Type ${typeToConfirm} to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        ) : null}
        <FormError message={error === null ? undefined : describeError(error)} />
        <div className="flex justify-end gap-2">
          <ConfirmDialogCancel asChild>
            <Button>Cancel</Button>
          </ConfirmDialogCancel>
          <Button type="submit" variant="danger" disabled={!confirmed || pending}>
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </div>
      </form>
    </ConfirmDialog>
  );
}

/** The one confirm dialog of every irreversible delete: the danger button that opens it, and the dialog. */
export function ConfirmDelete({ triggerLabel, triggerName, scope, refusal, ...dialog }: ConfirmDeleteProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ScopedAction scope={scope} refusal={refusal}>
        <Button variant="danger" onClick={() => setOpen(true)} aria-label={triggerName}>
          <Trash2 aria-hidden="true" className="size-4" />
          {triggerLabel}
        </Button>
      </ScopedAction>
      <ConfirmActionDialog {...dialog} open={open} onOpenChange={setOpen} pendingLabel="Deleting…" />
    </>
  );
}
