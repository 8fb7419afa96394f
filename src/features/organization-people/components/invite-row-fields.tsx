import type { UseFormReturn } from 'react-hook-form';
import { SelectField, TextField } from '@/components/form-kit';
import type { InviteFormValues, RowField, SentRow } from './invite-rows';
import { LEVELS } from './levels';

interface InviteRowFieldsProps {
  form: UseFormReturn<InviteFormValues, unknown, SentRow[]>;
  index: number;
  /** Nobody invites above their own level: higher levels are disabled. */
  callerLevel: number;
  /** An edit makes the form-level message stale. */
  onEdit: () => void;
}

/** One row of the invite form: email, first name and level, each labelled with its row number. */
export function InviteRowFields({ form, index, callerLevel, onEdit }: InviteRowFieldsProps) {
  const n = index + 1;
  const errors = form.formState.errors.rows?.[index];
  const field = (name: RowField, options: { valueAsNumber?: true; onChange?: () => void } = {}) =>
    form.register(`rows.${index}.${name}`, {
      ...options,
      onChange: () => {
        options.onChange?.();
        onEdit();
      },
    });
  return (
    <>
      {/* A changed address is a new invite: it no longer replaces the pending one it was asked to. */}
      <TextField
        className="min-w-56 flex-1"
        label={`Email ${n}`}
        type="email"
        autoComplete="off"
        error={errors?.target_email?.message}
        {...field('target_email', { onChange: () => form.setValue(`rows.${index}.resend`, false) })}
      />
      <TextField
        className="w-40"
        label={`Name ${n}`}
        autoComplete="off"
        error={errors?.first_name?.message}
        {...field('first_name')}
      />
      <SelectField
        className="w-32"
        label={`Level ${n}`}
        error={errors?.level?.message}
        {...field('level', { valueAsNumber: true })}
      >
        {LEVELS.map((l) => (
          <option key={l.value} value={l.value} disabled={l.value > callerLevel}>
            {l.label}
          </option>
        ))}
      </SelectField>
    </>
  );
}
