import { useMutation } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { batchExportEndpoints, RETRYABLE_RUN_STATUSES, type BatchExportRun } from '@/contract/batch-exports';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { describeError } from '@/lib/error-messages';
import { formatCount } from '@/lib/numbers';
import { toast } from '@/lib/toast';
import { batchExportMutations } from '../api/batch-exports.mutations';
import { formatIntervalTime } from './run-format';

interface ProgressProps {
  done: number;
  total: number;
  /** What it counts, as a person reads it: "3,000 of 10,000 records". */
  text: string;
  label: string;
}

/** A bar and its numbers in words; the bar is named and valued for screen readers. */
export function ProgressLine({ done, total, text, label }: ProgressProps) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <span className="inline-flex min-w-40 flex-col gap-1">
      <span
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(done, total)}
        aria-valuetext={text}
        className="h-1.5 w-full overflow-hidden rounded-full bg-gray-200 dark:bg-gray-800"
      >
        <span
          className="block h-full rounded-full bg-blue-600 transition-[width] dark:bg-blue-400"
          style={{ width: `${percent}%` }}
        />
      </span>
      <span className="text-xs whitespace-nowrap text-gray-700 tabular-nums dark:text-gray-300">{text}</span>
    </span>
  );
}

/** A run's records: a bar while it works and knows its total, the count once done. */
export function RunRecords({ run }: { run: BatchExportRun }) {
  if (run.status === 'Running' && run.records_total_count !== null && run.records_total_count > 0) {
    const done = run.records_completed ?? 0;
    return (
      <ProgressLine
        done={done}
        total={run.records_total_count}
        label={`Progress of the run from ${formatIntervalTime(run.data_interval_start)}`}
        text={`${formatCount(done)} of ${formatCount(run.records_total_count)} records`}
      />
    );
  }
  return <>{formatCount(run.records_completed)}</>;
}

/** "Retry" on a run that ended without exporting its interval: a new run of the same interval. */
export function RetryRun({
  organizationId,
  batchExportId,
  run,
}: {
  organizationId: string;
  batchExportId: string;
  run: BatchExportRun;
}) {
  const retry = useMutation(batchExportMutations.retryRun(organizationId, batchExportId));
  if (!RETRYABLE_RUN_STATUSES.includes(run.status)) return null;
  const interval = formatIntervalTime(run.data_interval_start);
  const onRetry = () => {
    if (retry.isPending) return;
    retry.mutate(run.id, {
      onSuccess: () => toast.success(`Retry queued: a new run will export ${interval} again.`),
      onError: (error) => toast.error(`Couldn't retry the run of ${interval}: ${describeError(error)}`),
    });
  };
  return (
    <ScopedAction scope={batchExportEndpoints.retryRun.access}>
      {/* Stays enabled while it works (aria-disabled): disabling it would drop the keyboard's focus. */}
      <Button
        size="sm"
        onClick={onRetry}
        aria-disabled={retry.isPending || undefined}
        aria-label={`Retry the run of ${interval}`}
      >
        <RotateCcw aria-hidden="true" className="size-3.5" />
        {retry.isPending ? 'Retrying…' : retry.isSuccess ? 'Queued' : 'Retry'}
      </Button>
    </ScopedAction>
  );
}
