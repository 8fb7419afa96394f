import { SelectField, TextField } from '@/components/form-kit';
import type { InviteRow, RowErrors } from './invite-rows';
import { LEVELS } from './levels';

interface InviteRowFieldsProps {
  row: InviteRow;
  index: number;
  errors: RowErrors | undefined;
  /** Nobody invites above their own level: higher levels are disabled. */
  callerLevel: number;
  onChange: (patch: Partial<InviteRow>) => void;
}

/** One row of the invite form: email, first name and level, each labelled with its row number. */
export function InviteRowFields({ row, index, errors, callerLevel, onChange }: InviteRowFieldsProps) {
  const n = index + 1;
  return (
    <>
      <TextField className="min-w-56 flex-1" label={`Email ${n}`} type="email" autoComplete="off" value={row.target_email}
        error={errors?.target_email} onChange={(event) => onChange({ target_email: event.target.value })} />
      <TextField className="w-40" label={`Name ${n}`} autoComplete="off" value={row.first_name} error={errors?.first_name}
        onChange={(event) => onChange({ first_name: event.target.value })} />
      <SelectField className="w-32" label={`Level ${n}`} value={row.level} error={errors?.level}
        onChange={(event) => onChange({ level: Number(event.target.value) as InviteRow['level'] })}>
        {LEVELS.map((l) => (
          <option key={l.value} value={l.value} disabled={l.value > callerLevel}>{l.label}</option>
        ))}
      </SelectField>
    </>
  );
}
