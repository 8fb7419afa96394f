import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { CircleStop } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { batchExportEndpoints, isBackfillActive, type Backfill } from '@/contract/batch-exports';
import { Pagination } from '@/components/data-table/pagination';
import { EmptyState } from '@/components/feedback/empty-state';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { FormError } from '@/components/form-kit';
import { DataTable, type Column } from '@/components/list-kit';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, ConfirmDialogCancel } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/dates';
import { describeError } from '@/lib/error-messages';
import { formatCount } from '@/lib/numbers';
import { pageParams } from '@/lib/page-search';
import { toast } from '@/lib/toast';
import { batchExportMutations } from '../api/batch-exports.mutations';
import { BACKFILLS_PAGE_SIZE, batchExportQueries, LIVE_REFRESH_MS } from '../api/batch-exports.queries';
import { detailRoute } from './detail-route';
import { statusLabel } from './labels';
import { ProgressLine } from './run-actions';
import { formatIntervalTime } from './run-format';

const TONES: Partial<Record<Backfill['status'], BadgeTone>> = {
  Running: 'info',
  Completed: 'success',
  Failed: 'danger',
  Cancelled: 'neutral',
};

const range = (backfill: Backfill) =>
  `${formatIntervalTime(backfill.start_at)} – ${formatIntervalTime(backfill.end_at)}`;

/** "12 of 48 runs · 10,240 records", with a bar while the backfill works. */
function BackfillProgress({ backfill }: { backfill: Backfill }) {
  const { progress } = backfill;
  if (!progress || progress.total_runs === null) return <>—</>;
  const runs = `${formatCount(progress.finished_runs ?? 0)} of ${formatCount(progress.total_runs)} runs`;
  const text =
    progress.records_completed === undefined || progress.records_completed === null
      ? runs
      : `${runs} · ${formatCount(progress.records_completed)} records`;
  return (
    <ProgressLine
      done={progress.finished_runs ?? 0}
      total={progress.total_runs}
      text={text}
      label={`Progress of the backfill of ${range(backfill)}`}
    />
  );
}

/** Cancel, through the shared confirm dialog: the waiting runs are cancelled, a run under way finishes. */
function CancelBackfill({ backfill }: { backfill: Backfill }) {
  const { organizationId, batchExportId } = detailRoute.useParams();
  const cancel = useMutation(batchExportMutations.cancelBackfill(organizationId, batchExportId));
  const [open, setOpen] = useState(false);
  if (!isBackfillActive(backfill)) return null;
  const waiting = (backfill.progress?.total_runs ?? 0) - (backfill.progress?.finished_runs ?? 0);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (cancel.isPending) return;
    cancel.mutate(backfill.id, {
      onSuccess: () => {
        setOpen(false);
        toast.success(`Backfill of ${range(backfill)} cancelled.`);
      },
    });
  };
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) cancel.reset();
  };
  return (
    <>
      <ScopedAction scope={batchExportEndpoints.cancelBackfill.access}>
        <Button
          size="sm"
          variant="danger"
          onClick={() => onOpenChange(true)}
          aria-label={`Cancel the backfill of ${range(backfill)}`}
        >
          <CircleStop aria-hidden="true" className="size-3.5" />
          Cancel
        </Button>
      </ScopedAction>
      <ConfirmDialog
        open={open}
        onOpenChange={onOpenChange}
        title="Cancel this backfill?"
        description={`The backfill of ${range(backfill)} stops: its ${formatCount(waiting)} runs not yet finished are cancelled (a run already exporting finishes). Cancelled runs can be retried one by one.`}
      >
        <form onSubmit={onSubmit} className="space-y-4">
          <FormError message={cancel.error ? describeError(cancel.error) : undefined} />
          <div className="flex justify-end gap-2">
            <ConfirmDialogCancel asChild>
              <Button>Keep it running</Button>
            </ConfirmDialogCancel>
            <Button type="submit" variant="danger" aria-disabled={cancel.isPending || undefined}>
              {cancel.isPending ? 'Cancelling…' : 'Cancel backfill'}
            </Button>
          </div>
        </form>
      </ConfirmDialog>
    </>
  );
}

const columns: readonly Column<Backfill>[] = [
  {
    header: 'Range',
    className: 'whitespace-nowrap',
    cell: (b) => (
      <>
        <time dateTime={b.start_at ?? undefined}>{formatIntervalTime(b.start_at)}</time> –{' '}
        <time dateTime={b.end_at ?? undefined}>{formatIntervalTime(b.end_at)}</time>
      </>
    ),
  },
  { header: 'Status', cell: (b) => <Badge tone={TONES[b.status] ?? 'neutral'}>{statusLabel(b.status)}</Badge> },
  { header: 'Progress', cell: (b) => <BackfillProgress backfill={b} /> },
  {
    header: 'Started',
    className: 'whitespace-nowrap',
    cell: (b) => <time dateTime={b.created_at}>{formatDateTime(b.created_at)}</time>,
  },
  { header: 'Actions', hideHeader: true, className: 'text-right', cell: (b) => <CancelBackfill backfill={b} /> },
];

/** The export's backfills, newest first, with their progress; refreshes while one is running. */
export function BackfillsPanel({ watchUntil }: { watchUntil: number }) {
  const { organizationId, batchExportId } = detailRoute.useParams();
  const { backfillsPage: page } = detailRoute.useSearch();
  const navigate = detailRoute.useNavigate();
  const onPageChange = (next: number) =>
    void navigate({ search: (previous) => ({ ...previous, backfillsPage: next }) });
  const { data } = useSuspenseQuery({
    ...batchExportQueries.backfills(organizationId, batchExportId, pageParams(page, BACKFILLS_PAGE_SIZE)),
    refetchInterval: (query) =>
      (query.state.data?.results ?? []).some(isBackfillActive) || Date.now() < watchUntil ? LIVE_REFRESH_MS : false,
  });
  if (data.count === 0) {
    return (
      <EmptyState title="No backfills yet">
        Use “Backfill” to export a past time range; its runs and progress show here. Retrying a run is a backfill of its
        interval.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-2">
      <DataTable caption="Backfills, newest first" rows={data.results} columns={columns} getRowId={(b) => b.id} />
      <Pagination
        label="Backfills"
        page={page}
        pageSize={BACKFILLS_PAGE_SIZE}
        count={data.count}
        onPageChange={onPageChange}
      />
    </div>
  );
}
