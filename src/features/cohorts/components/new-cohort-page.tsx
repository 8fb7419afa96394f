import { useMutation } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { OPERATOR_WORDS, PROPERTY_OPERATORS, VALUELESS_OPERATORS, type PropertyOperator } from '@/contract/analytics-filters';
import { COHORT_TIME_INTERVALS, cohortEndpoints, type CohortCreateInput, type CohortTimeInterval } from '@/contract/cohorts';
import { LeaveGuard } from '@/components/feedback/leave-guard';
import { Fieldset, FormFooter, SelectField, TextareaField, TextField } from '@/components/form-kit';
import { PageTitle } from '@/components/layout/page-title';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import { toast } from '@/lib/toast';
import { cohortMutations } from '../api/cohorts.mutations';
import { newCriterion, rowFieldOf, toFilters, type CriteriaState, type CriterionKind, type CriterionRow } from './cohort-criteria';

const route = getRouteApi('/_authed/projects/$projectId/cohorts/new');

const KIND_WORDS: Record<CriterionKind, string> = {
  person: 'Has person property',
  performed: 'Did event',
  not_performed: 'Did not do event',
};
const UNIT_WORDS: Record<CohortTimeInterval, string> = { hour: 'hours', day: 'days', week: 'weeks', month: 'months', year: 'years' };

type Errors = Partial<Record<string, string>>;

function CriterionEditor({ row, index, onChange, onRemove, errors }: {
  row: CriterionRow; index: number; onChange: (row: CriterionRow) => void; onRemove: () => void; errors: Errors;
}) {
  const name = `Criterion ${index + 1}`;
  const err = (field: keyof CriterionRow) => errors[`${index}.${field}`];
  const set = (patch: Partial<CriterionRow>) => onChange({ ...row, ...patch });
  return (
    <li className="flex flex-wrap items-start gap-3 rounded-md border border-gray-200 p-3 dark:border-gray-800">
      <SelectField label={`${name}: kind`} value={row.kind} onChange={(e) => set({ kind: e.target.value as CriterionKind })}>
        {Object.entries(KIND_WORDS).map(([k, words]) => <option key={k} value={k}>{words}</option>)}
      </SelectField>
      {row.kind === 'person' ? (
        <>
          <TextField label={`${name}: property`} value={row.key} error={err('key')} placeholder="plan" autoComplete="off" onChange={(e) => set({ key: e.target.value })} />
          <SelectField label={`${name}: operator`} value={row.operator} error={err('operator')} onChange={(e) => set({ operator: e.target.value as PropertyOperator })}>
            {PROPERTY_OPERATORS.map((op) => <option key={op} value={op}>{OPERATOR_WORDS[op]}</option>)}
          </SelectField>
          {VALUELESS_OPERATORS.includes(row.operator) ? null : (
            <TextField label={`${name}: value`} value={row.value} error={err('value')} autoComplete="off" onChange={(e) => set({ value: e.target.value })} />
          )}
        </>
      ) : (
        <>
          <TextField label={`${name}: event`} value={row.key} error={err('key')} placeholder="purchase" autoComplete="off" onChange={(e) => set({ key: e.target.value })} />
          {row.kind === 'performed' ? (
            <TextField label={`${name}: at least (times)`} className="w-32" inputMode="numeric" value={row.count} error={err('count')} onChange={(e) => set({ count: e.target.value })} />
          ) : null}
          <TextField label={`${name}: in the last`} className="w-28" inputMode="numeric" value={row.within} error={err('within')} onChange={(e) => set({ within: e.target.value })} />
          <SelectField label={`${name}: unit`} value={row.unit} error={err('unit')} onChange={(e) => set({ unit: e.target.value as CohortTimeInterval })}>
            {COHORT_TIME_INTERVALS.map((u) => <option key={u} value={u}>{UNIT_WORDS[u]}</option>)}
          </SelectField>
        </>
      )}
      <Button variant="ghost" className="mt-6" onClick={onRemove} aria-label={`Remove ${name.toLowerCase()}`}>
        <X aria-hidden="true" className="size-4" />
      </Button>
    </li>
  );
}

/** A new cohort: static from an uploaded CSV of distinct ids or emails, or dynamic from criteria. */
export function NewCohortPage() {
  const { projectId } = route.useParams();
  const navigate = route.useNavigate();
  const { mutateAsync } = useMutation(cohortMutations.create(projectId));
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<'dynamic' | 'static'>('dynamic');
  const [file, setFile] = useState<File | null>(null);
  const [criteria, setCriteria] = useState<CriteriaState>({ match: 'AND', rows: [newCriterion()] });
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const dirty = !saving && (name !== '' || description !== '' || file !== null || criteria.rows.some((r) => r.key !== ''));

  const updateRow = (uid: string, next: CriterionRow) => setCriteria((c) => ({ ...c, rows: c.rows.map((r) => (r.uid === uid ? next : r)) }));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFormError(undefined);
    if (kind === 'static' && !file) {
      setErrors({ csv: 'Choose a CSV file of distinct ids or emails.' });
      return;
    }
    setSaving(true);
    try {
      const body: CohortCreateInput = kind === 'static'
        ? { name, description, is_static: true, csv: await file!.text() }
        : { name, description, filters: toFilters(criteria) };
      const created = await mutateAsync(body);
      toast.success(`${created.name || 'The cohort'} has ${created.count ?? 0} ${created.count === 1 ? 'person' : 'persons'}`);
      await navigate({ to: '/projects/$projectId/cohorts/$cohortId', params: { projectId, cohortId: created.id } });
    } catch (failure) {
      setSaving(false);
      const attr = isApiError(failure) && failure.status === 400 ? failure.attr : null;
      const row = rowFieldOf(attr);
      if (row) setErrors({ [`${row[0]}.${row[1]}`]: isApiError(failure) ? failure.detail : '' });
      else if (attr === 'name' || attr === 'description' || attr === 'csv') setErrors({ [attr]: isApiError(failure) ? failure.detail : '' });
      else setFormError(describeError(failure));
    }
  };

  return (
    <div className="max-w-4xl space-y-6">
      <LeaveGuard dirty={dirty} what="this cohort" />
      <PageTitle title="New cohort" description="A static list of persons, or everyone who matches criteria (computed when saved)." />
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-6">
        <Fieldset legend="About">
          <TextField label="Name" value={name} error={errors.name} maxLength={400} onChange={(e) => setName(e.target.value)} />
          <TextareaField label="Description" value={description} error={errors.description} rows={2} onChange={(e) => setDescription(e.target.value)} />
          <SelectField label="Type" value={kind} onChange={(e) => setKind(e.target.value as 'dynamic' | 'static')}
            description={kind === 'static' ? 'A fixed list of persons.' : 'Everyone who matches the criteria when the cohort is saved.'}>
            <option value="dynamic">Dynamic: from criteria</option>
            <option value="static">Static: upload a CSV</option>
          </SelectField>
        </Fieldset>
        {kind === 'static' ? (
          <Fieldset legend="Persons">
            <TextField label="CSV file" type="file" accept=".csv,text/csv" error={errors.csv}
              description="One person per row, named in the first column by distinct id or email. Rows that name nobody are skipped."
              onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          </Fieldset>
        ) : (
          <Fieldset legend="Criteria">
            <SelectField label="Persons who match" value={criteria.match} onChange={(e) => setCriteria((c) => ({ ...c, match: e.target.value as 'AND' | 'OR' }))}>
              <option value="AND">all of these criteria</option>
              <option value="OR">any of these criteria</option>
            </SelectField>
            <ul className="space-y-3" aria-label="Criteria">
              {criteria.rows.map((row, i) => (
                <CriterionEditor key={row.uid} row={row} index={i} errors={errors} onChange={(next) => updateRow(row.uid, next)}
                  onRemove={() => setCriteria((c) => ({ ...c, rows: c.rows.filter((r) => r.uid !== row.uid) }))} />
              ))}
            </ul>
            <Button onClick={() => setCriteria((c) => ({ ...c, rows: [...c.rows, newCriterion()] }))}>Add criterion</Button>
          </Fieldset>
        )}
        <FormFooter error={formError} submitLabel="Save cohort" pendingLabel="Saving…" isSubmitting={saving} scope={cohortEndpoints.create.access}>
          <Button onClick={() => void navigate({ to: '/projects/$projectId/cohorts', params: { projectId } })}>Cancel</Button>
        </FormFooter>
      </form>
    </div>
  );
}
