import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useForm, useWatch, type Path } from 'react-hook-form';
import { toast } from '@/lib/toast';
import {
  BATCH_EXPORT_DESTINATIONS,
  BATCH_EXPORT_INTERVALS,
  BATCH_EXPORT_MODELS,
  BATCH_EXPORT_NAME_MAX,
  batchExportEndpoints,
  destinationCreateSchema,
  destinationUpdateSchema,
  type BatchExport,
  type BatchExportCreate,
  type BatchExportUpdate,
  type DestinationType,
} from '@/contract/batch-exports';
import {
  applyServerError,
  attrToFieldPath,
  Fieldset,
  FormFooter,
  SelectField,
  submitHandler,
  TextareaField,
  TextField,
} from '@/components/form-kit';
import { LeaveGuard } from '@/components/feedback/leave-guard';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { batchExportMutations, useCreateBatchExport, useUpdateBatchExport } from '../api/batch-exports.mutations';
import { ConnectionTestPanel } from './connection-test';
import { DestinationFields } from './destination-fields';
import {
  batchExportResolver,
  createDefaults,
  editDefaults,
  formFieldPaths,
  initialConfig,
  toRequestBody,
  type BatchExportFormValues,
  type ConfigValue,
} from './form-values';
import { intervalLabel, modelLabel } from './labels';

type Output = BatchExportCreate | BatchExportUpdate;

interface BatchExportFormProps {
  organizationId: string;
  /** The export being edited; none to create one. */
  batchExport?: BatchExport;
  onSaved: (batchExport: BatchExport) => void;
  onCancel: () => void;
}

/**
 * Create or edit a batch export. The destination type switches the config fields (from the
 * contract); what was typed for another type is kept if the user switches back. Client checks
 * use the contract's request schema; a server 400 lands on the field its `attr` names.
 */
export function BatchExportForm({ organizationId, batchExport, onSaved, onCancel }: BatchExportFormProps) {
  const storedType = batchExport?.destination.type ?? null;
  const form = useForm<BatchExportFormValues, unknown, Output>({
    resolver: batchExportResolver(storedType),
    defaultValues: batchExport ? editDefaults(batchExport) : createDefaults(),
  });
  const create = useCreateBatchExport(organizationId);
  const update = useUpdateBatchExport(organizationId, batchExport?.id ?? '');
  const { errors, isSubmitting, isDirty } = form.formState;
  // Config typed for each destination type, so switching back and forth loses nothing.
  const stash = useRef<Partial<Record<DestinationType, Record<string, ConfigValue>>>>({});
  const type = useWatch({ control: form.control, name: 'destination.type' });
  const previousType = useRef(type);
  // Testing never saves: an edit tests its fields over the stored config (blank secrets: the stored ones).
  const testNew = useMutation(batchExportMutations.testConnection(organizationId));
  const testEdited = useMutation(batchExportMutations.testExportConnection(organizationId, batchExport?.id ?? ''));
  const test = batchExport ? testEdited : testNew;
  const { reset: resetTestNew } = testNew;
  const { reset: resetTestEdited } = testEdited;

  useEffect(() => {
    const previous = previousType.current;
    if (previous === type) return;
    stash.current[previous] = form.getValues('destination.config');
    previousType.current = type;
    const stored =
      batchExport?.destination.type === type ? (batchExport.destination.config as Record<string, unknown>) : {};
    form.setValue('destination.config', stash.current[type] ?? initialConfig(type, stored));
    form.clearErrors('destination');
    // A result of another type's test would say nothing about this one.
    resetTestNew();
    resetTestEdited();
  }, [type, form, batchExport, resetTestNew, resetTestEdited]);

  const fields = () => formFieldPaths(form.getValues('destination.type')) as Path<BatchExportFormValues>[];
  const onSubmit = submitHandler(form, fields, async (body) => {
    const saved = batchExport
      ? await update.mutateAsync(body as BatchExportUpdate)
      : await create.mutateAsync(body as BatchExportCreate);
    toast.success(batchExport ? 'Changes saved' : `Batch export “${saved.name}” created`);
    onSaved(saved);
  });

  const destinationFields = () => fields().filter((path) => path.startsWith('destination.'));
  // A 400 naming a field of the form goes on it; anything else is told beside the button.
  const onField = (error: unknown) =>
    isApiError(error) &&
    error.status === 400 &&
    !!error.attr &&
    destinationFields().some((path) => path === attrToFieldPath(error.attr!));
  const onTestError = (error: unknown) => {
    if (onField(error)) applyServerError(form, error, destinationFields());
  };
  const onTest = async () => {
    if (!(await form.trigger(destinationFields(), { shouldFocus: true }))) return;
    const { destination } = toRequestBody(form.getValues(), storedType);
    if (batchExport) {
      const parsed = destinationUpdateSchema.safeParse(destination);
      if (parsed.success) testEdited.mutate({ destination: parsed.data }, { onError: onTestError });
    } else {
      const parsed = destinationCreateSchema.safeParse(destination);
      if (parsed.success) testNew.mutate({ destination: parsed.data }, { onError: onTestError });
    }
  };

  const scope = batchExport ? batchExportEndpoints.update.access : batchExportEndpoints.create.access;
  return (
    <form onSubmit={onSubmit} noValidate className="max-w-3xl space-y-6">
      {/* Not while saving: a save leaves for the export's page. */}
      <LeaveGuard dirty={isDirty && !isSubmitting} what="this batch export" />
      <Fieldset legend="General">
        <TextField
          label="Name"
          maxLength={BATCH_EXPORT_NAME_MAX}
          autoComplete="off"
          error={errors.name?.message}
          {...form.register('name')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label="Model" error={errors.model?.message} {...form.register('model')}>
            {BATCH_EXPORT_MODELS.map((model) => (
              <option key={model} value={model}>
                {modelLabel(model)}
              </option>
            ))}
          </SelectField>
          <SelectField label="Interval" error={errors.interval?.message} {...form.register('interval')}>
            {BATCH_EXPORT_INTERVALS.map((interval) => (
              <option key={interval} value={interval}>
                {intervalLabel(interval)}
              </option>
            ))}
          </SelectField>
        </div>
      </Fieldset>

      <Fieldset legend="Destination">
        <SelectField
          label="Destination type"
          error={errors.destination?.type?.message}
          {...form.register('destination.type')}
        >
          {BATCH_EXPORT_DESTINATIONS.map((info) => (
            <option key={info.type} value={info.type}>
              {info.label}
            </option>
          ))}
        </SelectField>
        <DestinationFields form={form} editing={batchExport !== undefined} />
        <ConnectionTestPanel
          scope={batchExportEndpoints.testConnection.access}
          onTest={() => void onTest()}
          pending={test.isPending}
          result={test.data}
          error={onField(test.error) ? null : test.error}
          hint={
            batchExport
              ? 'Tries these settings, with the stored secrets where left blank. Nothing is saved.'
              : 'Tries these settings. Nothing is saved.'
          }
        />
      </Fieldset>

      <Fieldset legend="Schedule">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Start at"
            type="datetime-local"
            description="Optional. No runs before this time (your time zone)."
            error={errors.start_at?.message}
            {...form.register('start_at')}
          />
          <TextField
            label="End at"
            type="datetime-local"
            description="Optional. No runs after this time."
            error={errors.end_at?.message}
            {...form.register('end_at')}
          />
        </div>
      </Fieldset>

      <Fieldset legend="Query">
        <TextareaField
          label="HogQL query"
          rows={4}
          spellCheck={false}
          description="Optional. Selects and renames the exported fields, e.g. SELECT event, timestamp FROM events."
          error={errors.hogql_query?.message}
          {...form.register('hogql_query')}
        />
      </Fieldset>

      <FormFooter
        error={errors.root?.server?.message}
        submitLabel={batchExport ? 'Save changes' : 'Create batch export'}
        pendingLabel="Saving…"
        isSubmitting={isSubmitting}
        scope={scope}
      >
        <Button onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
      </FormFooter>
    </form>
  );
}
