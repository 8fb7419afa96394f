import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { preloadable } from '@/lib/preloadable';
import { BATCH_EXPORT_RUN_STATUSES, type BatchExportRun } from '@/contract/batch-exports';
import { Pagination } from '@/components/data-table/pagination';
import { Table, Td, Th } from '@/components/data-table/table';
import { EmptyState } from '@/components/feedback/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { pageParams } from '@/lib/page-search';
import { batchExportQueries, hasActiveRun, LIVE_REFRESH_MS, RUNS_PAGE_SIZE } from '../api/batch-exports.queries';
import { detailRoute } from './detail-route';
import { RunStatusBadge, STATUS_COLOURS, statusLabel, statusTone } from './labels';
import { RetryRun, RunRecords } from './run-actions';
import { formatIntervalTime, runDuration, viewerTimeZone } from './run-format';

// recharts is big: it loads only when a chart is shown, after the page.
const RunsChart = preloadable(() => import('./runs-chart')).Component;

interface RunsPanelProps {
  /** Keep refreshing until this time (ms) even without a run in progress: a backfill was just started. */
  watchUntil: number;
}

function ChartLegend({ runs }: { runs: BatchExportRun[] }) {
  const present = BATCH_EXPORT_RUN_STATUSES.filter((status) => runs.some((run) => run.status === status));
  return (
    <ul aria-label="Chart legend" className="flex flex-wrap gap-4 text-xs text-gray-700 dark:text-gray-300">
      {present.map((status) => (
        <li key={status} className="inline-flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className="size-3 rounded-sm"
            style={{ background: STATUS_COLOURS[statusTone(status)] }}
          />
          {statusLabel(status)}
        </li>
      ))}
    </ul>
  );
}

function RunsTable({
  runs,
  organizationId,
  batchExportId,
}: {
  runs: BatchExportRun[];
  organizationId: string;
  batchExportId: string;
}) {
  return (
    <Table
      caption={`Runs, newest first. Times are in your time zone (${viewerTimeZone()}).`}
      showCaption
      keyboardScroll
    >
      <thead>
        <tr>
          <Th>Status</Th>
          <Th>Interval start</Th>
          <Th>Interval end</Th>
          <Th className="text-right">Records</Th>
          <Th>Duration</Th>
          <Th>Error</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id} data-run-id={run.id}>
            <Td>
              <RunStatusBadge status={run.status} />
            </Td>
            <Td className="whitespace-nowrap">
              {run.data_interval_start ? (
                <time dateTime={run.data_interval_start}>{formatIntervalTime(run.data_interval_start)}</time>
              ) : (
                '—'
              )}
            </Td>
            <Td className="whitespace-nowrap">
              <time dateTime={run.data_interval_end}>{formatIntervalTime(run.data_interval_end)}</time>
            </Td>
            <Td className="text-right tabular-nums">
              <RunRecords run={run} />
            </Td>
            <Td className="whitespace-nowrap">{runDuration(run)}</Td>
            <Td className={`max-w-md text-red-800 break-words dark:text-red-300${run.latest_error ? ' min-w-64' : ''}`}>
              {run.latest_error ?? ''}
            </Td>
            <Td className="text-right whitespace-nowrap">
              <RetryRun organizationId={organizationId} batchExportId={batchExportId} run={run} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The runs of an export: a chart of records per run and the table; refreshes while a run is in progress. */
export function RunsPanel({ watchUntil }: RunsPanelProps) {
  const { organizationId, batchExportId } = detailRoute.useParams();
  const { runsPage: page } = detailRoute.useSearch();
  const navigate = detailRoute.useNavigate();
  const onPageChange = (next: number) => void navigate({ search: (previous) => ({ ...previous, runsPage: next }) });
  const { data } = useSuspenseQuery({
    ...batchExportQueries.runs(organizationId, batchExportId, pageParams(page, RUNS_PAGE_SIZE)),
    refetchInterval: (query) =>
      hasActiveRun(query.state.data?.results) || Date.now() < watchUntil ? LIVE_REFRESH_MS : false,
  });
  if (data.count === 0) {
    return (
      <EmptyState title="No runs yet">
        A run starts when the first interval after the export's start has passed. Use “Backfill” to export past data
        now.
      </EmptyState>
    );
  }
  const live = hasActiveRun(data.results);
  return (
    <div className="space-y-4">
      <p role="status" className="text-sm text-gray-700 dark:text-gray-300">
        {live ? 'A run is in progress: this page refreshes by itself.' : ''}
      </p>
      <figure className="rounded-lg border border-gray-200 p-4 text-gray-700 dark:border-gray-800 dark:text-gray-300">
        <figcaption className="mb-2 text-sm font-medium text-gray-900 dark:text-gray-100">Records per run</figcaption>
        <Suspense fallback={<Skeleton className="h-60 w-full" />}>
          <RunsChart runs={data.results} />
        </Suspense>
        <ChartLegend runs={data.results} />
      </figure>
      <RunsTable runs={data.results} organizationId={organizationId} batchExportId={batchExportId} />
      <Pagination label="Runs" page={page} pageSize={RUNS_PAGE_SIZE} count={data.count} onPageChange={onPageChange} />
    </div>
  );
}
