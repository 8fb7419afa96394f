import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { FormFooter, submitHandler, TextareaField, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/dialog';
import { INSIGHT_NAME_MAX } from '@/contract/insights';
import { z } from '@/contract/z';

export interface SaveDetails {
  name: string;
  description: string;
}

interface SaveDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  submitLabel: string;
  initial: SaveDetails;
  /** Saves; a rejection shows its reason in the dialog. */
  onSave: (details: SaveDetails) => Promise<void>;
}

/** Name and description of an insight being saved (a new one, or a copy with "Save as new"). */
export function SaveDialog({ open, onOpenChange, title, submitLabel, initial, onSave }: SaveDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title}>
      {open ? (
        <SaveForm submitLabel={submitLabel} initial={initial} onSave={onSave} onCancel={() => onOpenChange(false)} />
      ) : null}
    </Modal>
  );
}

const saveSchema = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, { error: 'Give the insight a name.' }), z.maxLength(INSIGHT_NAME_MAX)),
  description: z.string().check(z.trim()),
});
const SAVE_FIELDS = ['name', 'description'] as const;

function SaveForm({
  submitLabel,
  initial,
  onSave,
  onCancel,
}: Omit<SaveDialogProps, 'open' | 'onOpenChange' | 'title'> & { onCancel: () => void }) {
  const form = useForm<SaveDetails>({ resolver: zodResolver(saveSchema), defaultValues: initial });
  const onSubmit = submitHandler(form, SAVE_FIELDS, onSave);
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  return (
    <form noValidate className="space-y-4" onSubmit={onSubmit}>
      <TextField
        label="Name"
        maxLength={INSIGHT_NAME_MAX}
        required
        error={errors.name?.message}
        {...register('name')}
      />
      <TextareaField label="Description" rows={3} error={errors.description?.message} {...register('description')} />
      <FormFooter
        align="end"
        error={errors.root?.server?.message}
        submitLabel={submitLabel}
        pendingLabel="Saving…"
        isSubmitting={isSubmitting}
      >
        <Button onClick={onCancel}>Cancel</Button>
      </FormFooter>
    </form>
  );
}
