import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Pause, Play } from 'lucide-react';
import { useMemo } from 'react';
import { batchExportEndpoints, type BatchExport } from '@/contract/batch-exports';
import { RelativeTime } from '@/components/ui/relative-time';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { ListPage, PrimaryAction, usePageSearch, type BulkActions, type Column } from '@/components/list-kit';
import { Button } from '@/components/ui/button';
import { useSetPaused, type PauseVariables } from '../api/batch-exports.mutations';
import { batchExportQueries } from '../api/batch-exports.queries';
import { batchExportsHeader } from './batch-exports-page-states';
import { DestinationName, intervalLabel, lastRun, modelLabel, PausedBadge, RunStatusBadge } from './labels';
import { PauseSwitch } from './pause-switch';

const route = getRouteApi('/_authed/organizations/$organizationId/batch-exports/');

function LastRun({ batchExport }: { batchExport: BatchExport }) {
  const run = lastRun(batchExport.latest_runs);
  if (!run) return <span className="text-gray-600 dark:text-gray-400">No runs yet</span>;
  return (
    <span className="inline-flex items-center gap-2">
      <RunStatusBadge status={run.status} />
      <RelativeTime value={run.created_at} className="text-gray-700 dark:text-gray-300" />
    </span>
  );
}

function exportColumns(organizationId: string, setPaused: (variables: PauseVariables) => void): Column<BatchExport>[] {
  return [
    {
      header: 'Name',
      className: 'max-w-xs break-words',
      cell: (batchExport) => (
        <Link
          to="/organizations/$organizationId/batch-exports/$batchExportId"
          params={{ organizationId, batchExportId: batchExport.id }}
          className="font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
        >
          {batchExport.name}
        </Link>
      ),
    },
    { header: 'Destination', cell: (batchExport) => <DestinationName type={batchExport.destination.type} /> },
    { header: 'Model', cell: (batchExport) => modelLabel(batchExport.model) },
    { header: 'Interval', className: 'whitespace-nowrap', cell: (batchExport) => intervalLabel(batchExport.interval) },
    { header: 'State', id: 'state', cell: (batchExport) => <PausedBadge paused={batchExport.paused} /> },
    {
      header: 'Last run',
      className: 'whitespace-nowrap',
      cell: (batchExport) => <LastRun batchExport={batchExport} />,
    },
    {
      header: 'Active',
      cell: (batchExport) => (
        <PauseSwitch batchExport={batchExport} onPausedChange={(paused) => setPaused({ batchExport, paused })} />
      ),
    },
  ];
}

const batchExportId = (batchExport: BatchExport) => batchExport.id;

/** The organization's batch exports, paged in the URL, with pause and unpause of several at once. */
export function BatchExportsPage() {
  const { organizationId } = route.useParams();
  const navigate = route.useNavigate();
  const { params } = usePageSearch();
  const { data } = useSuspenseQuery(batchExportQueries.list(organizationId, params));
  const { mutate: setPaused } = useSetPaused(organizationId);
  const columns = useMemo(() => exportColumns(organizationId, setPaused), [organizationId, setPaused]);

  const bulkActions: BulkActions<BatchExport> = {
    rowLabel: (batchExport) => batchExport.name,
    render: (selected) => {
      const setAll = (paused: boolean) => {
        for (const batchExport of selected) if (batchExport.paused !== paused) setPaused({ batchExport, paused });
      };
      return (
        <>
          <ScopedAction scope={batchExportEndpoints.pause.access}>
            <Button size="sm" onClick={() => setAll(true)} disabled={selected.every((item) => item.paused)}>
              <Pause aria-hidden="true" className="size-4" />
              Pause selected
            </Button>
          </ScopedAction>
          <ScopedAction scope={batchExportEndpoints.unpause.access}>
            <Button size="sm" onClick={() => setAll(false)} disabled={selected.every((item) => !item.paused)}>
              <Play aria-hidden="true" className="size-4" />
              Unpause selected
            </Button>
          </ScopedAction>
        </>
      );
    },
  };

  return (
    <ListPage
      {...batchExportsHeader}
      action={
        <PrimaryAction
          scope={batchExportEndpoints.create.access}
          onClick={() =>
            void navigate({ to: '/organizations/$organizationId/batch-exports/new', params: { organizationId } })
          }
        >
          New batch export
        </PrimaryAction>
      }
      data={data}
      columns={columns}
      getRowId={batchExportId}
      empty={{
        title: 'No batch exports yet',
        children:
          "Use “New batch export” to send this organization's events to S3, a warehouse or an HTTP endpoint on a schedule.",
      }}
      bulkActions={bulkActions}
    />
  );
}
