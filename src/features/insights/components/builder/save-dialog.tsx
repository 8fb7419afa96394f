import { useId, useState, type FormEvent } from 'react';
import { FormError, TextareaField, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/dialog';
import { INSIGHT_NAME_MAX } from '@/contract/insights';
import { describeError } from '@/lib/error-messages';

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
      {open ? <SaveForm submitLabel={submitLabel} initial={initial} onSave={onSave} onCancel={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function SaveForm({ submitLabel, initial, onSave, onCancel }: Omit<SaveDialogProps, 'open' | 'onOpenChange' | 'title'> & { onCancel: () => void }) {
  const id = useId();
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      await onSave({ name: name.trim(), description: description.trim() });
    } catch (failure) {
      setError(describeError(failure));
      setSaving(false);
    }
  };

  return (
    <form id={id} className="space-y-4" onSubmit={(e) => void submit(e)}>
      <TextField label="Name" value={name} maxLength={INSIGHT_NAME_MAX} required onChange={(e) => setName(e.target.value)} />
      <TextareaField label="Description" value={description} rows={3} onChange={(e) => setDescription(e.target.value)} />
      <FormError message={error} />
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={saving || name.trim() === ''}>
          {saving ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
