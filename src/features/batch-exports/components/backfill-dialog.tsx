import { useForm, type FieldErrors, type Resolver, type ResolverResult } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { BATCH_EXPORT_INTERVAL_MS, type BatchExport, type BatchExportBackfill, type BatchExportInterval } from '@/contract/batch-exports';
import { FormFooter, submitHandler, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { DialogClose, Modal } from '@/components/ui/dialog';
import { useBackfillBatchExport } from '../api/batch-exports.mutations';
import { fromInputValue, toInputValue } from './date-inputs';
import { intervalLabel } from './labels';

interface BackfillValues {
  start_at: string;
  end_at: string;
}
const FIELDS = ['start_at', 'end_at'] as const;

/** Date-only pickers for daily and weekly exports, date and time for shorter intervals. */
function usesDateOnly(interval: BatchExportInterval): boolean {
  return interval === 'day' || interval === 'week';
}

/** The start of the interval containing `now`, in the viewer's time zone. */
function floorToInterval(now: Date, interval: BatchExportInterval): Date {
  const date = new Date(now);
  date.setSeconds(0, 0);
  if (interval === 'every 5 minutes') date.setMinutes(date.getMinutes() - (date.getMinutes() % 5));
  else date.setMinutes(0);
  if (usesDateOnly(interval)) date.setHours(0);
  return date;
}

function defaults(interval: BatchExportInterval, now = new Date()): BackfillValues {
  const end = floorToInterval(now, interval);
  const span = { hour: 24, day: 7, week: 4, 'every 5 minutes': 12 }[interval] * BATCH_EXPORT_INTERVAL_MS[interval];
  const start = new Date(end.getTime() - span);
  return { start_at: toInputValue(start, usesDateOnly(interval)), end_at: toInputValue(end, usesDateOnly(interval)) };
}

/** Checked before anything is sent: both bounds, on the interval's marks, start before end, end not in the future. */
function backfillResolver(interval: BatchExportInterval): Resolver<BackfillValues, unknown, BatchExportBackfill> {
  const dateOnly = usesDateOnly(interval);
  const misaligned = (date: Date) =>
    interval === 'hour' ? date.getMinutes() !== 0 : interval === 'every 5 minutes' ? date.getMinutes() % 5 !== 0 : false;
  const alignedMessage = interval === 'hour' ? 'Choose a whole hour (minutes 00).' : 'Choose a time on a 5-minute mark.';
  return async (values): Promise<ResolverResult<BackfillValues, BatchExportBackfill>> => {
    const errors: FieldErrors<BackfillValues> = {};
    const start = fromInputValue(values.start_at, dateOnly);
    const end = fromInputValue(values.end_at, dateOnly);
    if (!start) errors.start_at = { type: 'required', message: 'Choose when the backfill starts.' };
    else if (misaligned(start)) errors.start_at = { type: 'aligned', message: alignedMessage };
    if (!end) errors.end_at = { type: 'required', message: 'Choose when the backfill ends.' };
    else if (misaligned(end)) errors.end_at = { type: 'aligned', message: alignedMessage };
    else if (end.getTime() > Date.now()) errors.end_at = { type: 'future', message: "The end can't be in the future." };
    else if (start && start.getTime() >= end.getTime())
      errors.end_at = { type: 'order', message: 'The end of the backfill must be after its start.' };
    if (start && end && Object.keys(errors).length === 0) {
      return { values: { start_at: start.toISOString(), end_at: end.toISOString() }, errors: {} };
    }
    return { values: {}, errors };
  };
}

interface BackfillDialogProps {
  organizationId: string;
  batchExport: BatchExport;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the server accepted: show the new runs. */
  onStarted: () => void;
}

function BackfillForm({ organizationId, batchExport, onStarted }: Omit<BackfillDialogProps, 'open' | 'onOpenChange'>) {
  const dateOnly = usesDateOnly(batchExport.interval);
  const form = useForm<BackfillValues, unknown, BatchExportBackfill>({
    resolver: backfillResolver(batchExport.interval),
    defaultValues: defaults(batchExport.interval),
  });
  const backfill = useBackfillBatchExport(organizationId, batchExport.id);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = submitHandler(form, FIELDS, async (body) => {
    await backfill.mutateAsync(body);
    const runs = Math.round((Date.parse(body.end_at) - Date.parse(body.start_at)) / BATCH_EXPORT_INTERVAL_MS[batchExport.interval]);
    toast.success(`Backfill started: about ${runs} ${runs === 1 ? 'run' : 'runs'}`);
    onStarted();
  });

  const inputType = dateOnly ? 'date' : 'datetime-local';
  const step = batchExport.interval === 'hour' ? 3600 : batchExport.interval === 'every 5 minutes' ? 300 : undefined;
  const max = toInputValue(new Date(), dateOnly);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Start" type={inputType} step={step} max={max} error={errors.start_at?.message} {...form.register('start_at')} />
        <TextField label="End" type={inputType} step={step} max={max} error={errors.end_at?.message} {...form.register('end_at')} />
      </div>
      <FormFooter align="end" error={errors.root?.server?.message} submitLabel="Start backfill" pendingLabel="Starting…" isSubmitting={isSubmitting}>
        <DialogClose asChild>
          <Button>Cancel</Button>
        </DialogClose>
      </FormFooter>
    </form>
  );
}

/** "Backfill": export a past range again, one run per interval. Its open state lives in the URL. */
export function BackfillDialog({ open, onOpenChange, ...props }: BackfillDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Backfill ${props.batchExport.name}`}
      description={`One run per interval (${intervalLabel(props.batchExport.interval).toLowerCase()}) from the start to the end, oldest first. Times are in your time zone.`}
    >
      <BackfillForm {...props} />
    </Modal>
  );
}
