import { useForm, type FieldErrors, type Resolver, type ResolverResult } from 'react-hook-form';
import { toast } from '@/lib/toast';
import {
  alignDown,
  backfillIntervals,
  BATCH_EXPORT_INTERVAL_MS,
  type BatchExport,
  type BatchExportBackfill,
  type BatchExportInterval,
} from '@/contract/batch-exports';
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

function defaults(interval: BatchExportInterval, now = new Date()): BackfillValues {
  const end = new Date(alignDown(interval, now.getTime()));
  const span = { hour: 24, day: 7, week: 4, 'every 5 minutes': 12 }[interval] * BATCH_EXPORT_INTERVAL_MS[interval];
  const start = new Date(end.getTime() - span);
  return { start_at: toInputValue(start, usesDateOnly(interval)), end_at: toInputValue(end, usesDateOnly(interval)) };
}

/** The local minute at which hours start (they start on the hour in UTC): 0, or 30 or 45 in some zones. */
const hourMarkMinute = () => new Date(alignDown('hour', Date.now())).getMinutes();

/** Checked before anything is sent: both bounds, on the interval's marks, start before end, end not in the future. */
function backfillResolver(interval: BatchExportInterval): Resolver<BackfillValues, unknown, BatchExportBackfill> {
  const dateOnly = usesDateOnly(interval);
  // A date picks a whole day (UTC); a time must fall on one of the interval's marks, which are
  // UTC's: in a time zone half an hour off UTC, hours start at minute 30.
  const misaligned = (date: Date) => !dateOnly && alignDown(interval, date.getTime()) !== date.getTime();
  const hourMark = hourMarkMinute();
  const alignedMessage =
    interval !== 'hour'
      ? 'Choose a time on a 5-minute mark.'
      : hourMark === 0
        ? 'Choose a whole hour (minutes 00).'
        : `Choose the start of an hour: minute ${String(hourMark).padStart(2, '0')} here (hours start on the hour in UTC).`;
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

/** The server's count: one run per interval the range touches (a week from its Monday) that has ended. */
const runsOf = (interval: BatchExportInterval, body: BatchExportBackfill) =>
  backfillIntervals(interval, Date.parse(body.start_at), Date.parse(body.end_at), Date.now()).length;

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
    const runs = runsOf(batchExport.interval, body);
    toast.success(`Backfill started: ${runs} ${runs === 1 ? 'run' : 'runs'}`);
    onStarted();
  });

  const inputType = dateOnly ? 'date' : 'datetime-local';
  // A step counts from :00 local: in a time zone half an hour off UTC the hours' marks fall
  // between its steps, so there the browser is given none (the check above still holds).
  const halfHourZone = hourMarkMinute() !== 0;
  const step =
    batchExport.interval === 'hour'
      ? halfHourZone
        ? undefined
        : 3600
      : batchExport.interval === 'every 5 minutes'
        ? 300
        : undefined;
  const max = toInputValue(new Date(), dateOnly);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Start"
          type={inputType}
          step={step}
          max={max}
          error={errors.start_at?.message}
          {...form.register('start_at')}
        />
        <TextField
          label="End"
          type={inputType}
          step={step}
          max={max}
          error={errors.end_at?.message}
          {...form.register('end_at')}
        />
      </div>
      {dateOnly ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {batchExport.interval === 'week'
            ? 'Weeks start on Monday at midnight UTC; every week the range touches is exported whole.'
            : 'Days start at midnight UTC: the start day is exported, the end day is not.'}
        </p>
      ) : null}
      <FormFooter
        align="end"
        error={errors.root?.server?.message}
        submitLabel="Start backfill"
        pendingLabel="Starting…"
        isSubmitting={isSubmitting}
      >
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
      description={`One run per interval (${intervalLabel(props.batchExport.interval).toLowerCase()}) from the start to the end, oldest first.${usesDateOnly(props.batchExport.interval) ? '' : ' Times are in your time zone.'}`}
    >
      <BackfillForm {...props} />
    </Modal>
  );
}
