import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { cohortEndpoints, MAX_COHORT_CRITERIA } from '@/contract/cohorts';
import { LeaveGuard } from '@/components/feedback/leave-guard';
import { Fieldset, FormFooter, SelectField, submitHandler, TextareaField, TextField } from '@/components/form-kit';
import { PageTitle } from '@/components/layout/page-title';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { cohortMutations } from '../api/cohorts.mutations';
import { newCriterion } from './cohort-criteria';
import { CriterionRowFields } from './criterion-row-fields';
import {
  fieldOfAttr,
  newCohortDefaults,
  newCohortSchema,
  shownPaths,
  type NewCohortDraft,
  type NewCohortValues,
} from './new-cohort-values';

const route = getRouteApi('/_authed/projects/$projectId/cohorts/new');

/** A new cohort: static from an uploaded CSV of distinct ids or emails, or dynamic from criteria. */
export function NewCohortPage() {
  const { projectId } = route.useParams();
  const navigate = route.useNavigate();
  const { mutateAsync } = useMutation(cohortMutations.create(projectId));
  const form = useForm<NewCohortValues, unknown, NewCohortDraft>({
    resolver: zodResolver(newCohortSchema),
    defaultValues: newCohortDefaults(),
  });
  const { fields: rows, append, remove } = useFieldArray({ control: form.control, name: 'rows' });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const {
    register,
    formState: { errors, isSubmitting, isDirty },
  } = form;

  const onSubmit = submitHandler(
    form,
    () => shownPaths(form.getValues()),
    async ({ body, file }) => {
      const created = await mutateAsync(file ? { ...body, csv: await file.text() } : body);
      toast.success(
        `${created.name || 'The cohort'} has ${created.count ?? 0} ${created.count === 1 ? 'person' : 'persons'}`,
      );
      await navigate({ to: '/projects/$projectId/cohorts/$cohortId', params: { projectId, cohortId: created.id } });
    },
    (attr) => fieldOfAttr(attr, form.getValues('rows')),
  );

  return (
    <div className="max-w-4xl space-y-6">
      {/* Not while saving: a save that succeeds leaves the page. */}
      <LeaveGuard dirty={isDirty && !isSubmitting} what="this cohort" />
      <PageTitle
        title="New cohort"
        description="A static list of persons, or everyone who matches criteria (computed when saved)."
      />
      <form noValidate onSubmit={onSubmit} className="space-y-6">
        <Fieldset legend="About">
          <TextField label="Name" error={errors.name?.message} maxLength={400} {...register('name')} />
          <TextareaField
            label="Description"
            error={errors.description?.message}
            rows={2}
            {...register('description')}
          />
          <SelectField
            label="Type"
            {...register('kind')}
            description={
              kind === 'static'
                ? 'A fixed list of persons.'
                : 'Everyone who matches the criteria when the cohort is saved.'
            }
          >
            <option value="dynamic">Dynamic: from criteria</option>
            <option value="static">Static: upload a CSV</option>
          </SelectField>
        </Fieldset>
        {kind === 'static' ? (
          <Fieldset legend="Persons">
            {/* A file input is not controlled: its value is the File the user picked. */}
            <Controller
              control={form.control}
              name="csv"
              render={({ field, fieldState }) => (
                <TextField
                  label="CSV file"
                  type="file"
                  accept=".csv,text/csv"
                  error={fieldState.error?.message}
                  description="One person per row, named in the first column by distinct id or email. Rows that name nobody are skipped."
                  name={field.name}
                  ref={field.ref}
                  onBlur={field.onBlur}
                  onChange={(e) => field.onChange(e.target.files?.[0] ?? null)}
                />
              )}
            />
          </Fieldset>
        ) : (
          <Fieldset legend="Criteria">
            <SelectField label="Persons who match" {...register('match')}>
              <option value="AND">all of these criteria</option>
              <option value="OR">any of these criteria</option>
            </SelectField>
            <ul className="space-y-3" aria-label="Criteria">
              {rows.map((row, index) => (
                <CriterionRowFields key={row.id} form={form} index={index} onRemove={() => remove(index)} />
              ))}
            </ul>
            <Button
              disabled={rows.length >= MAX_COHORT_CRITERIA}
              onClick={() => append(newCriterion(), { shouldFocus: false })}
            >
              Add criterion
            </Button>
          </Fieldset>
        )}
        <FormFooter
          error={errors.root?.server?.message}
          submitLabel="Save cohort"
          pendingLabel="Saving…"
          isSubmitting={isSubmitting}
          scope={cohortEndpoints.create.access}
        >
          <Button onClick={() => void navigate({ to: '/projects/$projectId/cohorts', params: { projectId } })}>
            Cancel
          </Button>
        </FormFooter>
      </form>
    </div>
  );
}
