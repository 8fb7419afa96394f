import { useSuspenseQuery } from '@tanstack/react-query';
import { Section } from '@/components/layout/section';
import { History, Pencil } from 'lucide-react';
import { Suspense, useState } from 'react';
import { batchExportEndpoints } from '@/contract/batch-exports';
import { TableSkeleton } from '@/components/data-table/table-skeleton';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { SectionBoundary } from '@/components/feedback/section-boundary';
import { PageTitle } from '@/components/layout/page-title';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useSetPaused } from '../api/batch-exports.mutations';
import { batchExportQueries, hasActiveRun, LIVE_REFRESH_MS } from '../api/batch-exports.queries';
import { BackfillDialog } from './backfill-dialog';
import { BackfillsPanel } from './backfills-panel';
import { BatchExportConfig } from './batch-export-config';
import { StoredConnectionTest } from './connection-test';
import { DeleteBatchExport } from './delete-batch-export';
import { detailRoute } from './detail-route';
import { DestinationName, intervalLabel, modelLabel, PausedBadge } from './labels';
import { LogsPanel } from './logs-panel';
import { PauseSwitch } from './pause-switch';
import { RunsPanel } from './runs-panel';

type DetailTab = 'runs' | 'backfills' | 'logs';

/** How long the runs keep refreshing after a backfill, even before its first run shows up. */
const WATCH_AFTER_BACKFILL_MS = 60_000;

function PanelFallback({ label }: { label: string }) {
  return <TableSkeleton columns={5} label={label} />;
}

/** One export: header with its actions, then runs (chart and table) and logs in tabs, the configuration beside them. */
export function BatchExportDetail() {
  const { organizationId, batchExportId } = detailRoute.useParams();
  const { tab, backfill, runsPage, logsPage, backfillsPage } = detailRoute.useSearch();
  const navigate = detailRoute.useNavigate();
  const onTabChange = (next: DetailTab) =>
    void navigate({ search: (previous) => ({ ...previous, tab: next }), replace: true });
  const setBackfillOpen = (open: boolean) =>
    void navigate({ search: (previous) => ({ ...previous, backfill: open ? true : undefined }), replace: !open });
  const { data: batchExport } = useSuspenseQuery({
    ...batchExportQueries.detail(organizationId, batchExportId),
    refetchInterval: (query) => (hasActiveRun(query.state.data?.latest_runs) ? LIVE_REFRESH_MS : false),
  });
  const { mutate: setPaused } = useSetPaused(organizationId);
  const [watchUntil, setWatchUntil] = useState(0);
  const live = hasActiveRun(batchExport.latest_runs);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageTitle
          title={batchExport.name}
          description={
            <span className="inline-flex flex-wrap items-center gap-x-2">
              <DestinationName type={batchExport.destination.type} />
              <span aria-hidden="true">·</span>
              {intervalLabel(batchExport.interval)}
              <span aria-hidden="true">·</span>
              {modelLabel(batchExport.model)}
            </span>
          }
        />
        <div className="flex flex-wrap items-center gap-3">
          <span className="inline-flex items-center gap-2">
            <PausedBadge paused={batchExport.paused} />
            <PauseSwitch batchExport={batchExport} onPausedChange={(paused) => setPaused({ batchExport, paused })} />
          </span>
          <ScopedAction scope={batchExportEndpoints.update.access}>
            <Button
              onClick={() =>
                void navigate({
                  to: '/organizations/$organizationId/batch-exports/$batchExportId/edit',
                  params: { organizationId, batchExportId },
                })
              }
            >
              <Pencil aria-hidden="true" className="size-4" />
              Edit
            </Button>
          </ScopedAction>
          <ScopedAction scope={batchExportEndpoints.backfill.access}>
            <Button onClick={() => setBackfillOpen(true)}>
              <History aria-hidden="true" className="size-4" />
              Backfill
            </Button>
          </ScopedAction>
          <DeleteBatchExport
            organizationId={organizationId}
            batchExport={batchExport}
            onDeleted={() =>
              navigate({
                to: '/organizations/$organizationId/batch-exports',
                params: { organizationId },
                replace: true,
              })
            }
          />
        </div>
      </div>

      <div className="grid gap-8 2xl:grid-cols-[minmax(0,1fr)_26rem]">
        <Tabs className="min-w-0" value={tab} onValueChange={(value) => onTabChange(value as DetailTab)}>
          <TabsList aria-label="Batch export">
            <TabsTrigger value="runs">Runs</TabsTrigger>
            <TabsTrigger value="backfills">Backfills</TabsTrigger>
            <TabsTrigger value="logs">Logs</TabsTrigger>
          </TabsList>
          <TabsContent value="runs">
            {/* Keyed: another export or page is a fresh try, not the last one's failure. */}
            <SectionBoundary what="The runs" key={`${batchExportId}:${runsPage ?? 1}`}>
              <Suspense fallback={<PanelFallback label="Loading runs" />}>
                <RunsPanel watchUntil={watchUntil} />
              </Suspense>
            </SectionBoundary>
          </TabsContent>
          <TabsContent value="backfills">
            <SectionBoundary what="The backfills" key={`${batchExportId}:${backfillsPage ?? 1}`}>
              <Suspense fallback={<PanelFallback label="Loading backfills" />}>
                <BackfillsPanel watchUntil={watchUntil} />
              </Suspense>
            </SectionBoundary>
          </TabsContent>
          <TabsContent value="logs">
            <SectionBoundary what="The logs" key={`${batchExportId}:${logsPage ?? 1}`}>
              <Suspense fallback={<PanelFallback label="Loading logs" />}>
                <LogsPanel live={live} watchUntil={watchUntil} />
              </Suspense>
            </SectionBoundary>
          </TabsContent>
        </Tabs>
        <Section id="batch-export-configuration" title="Configuration">
          <div className="space-y-4">
            {/* Above the settings, not under their long list: where an admin checking the export looks first. */}
            <StoredConnectionTest organizationId={organizationId} batchExportId={batchExportId} />
            <BatchExportConfig batchExport={batchExport} />
          </div>
        </Section>
      </div>

      {backfill === true ? (
        <BackfillDialog
          open
          onOpenChange={setBackfillOpen}
          organizationId={organizationId}
          batchExport={batchExport}
          onStarted={() => {
            setWatchUntil(Date.now() + WATCH_AFTER_BACKFILL_MS);
            // The runs it queued are on the first page of the runs tab.
            void navigate({
              search: (previous) => ({ ...previous, backfill: undefined, tab: 'runs', runsPage: 1 }),
              replace: true,
            });
          }}
        />
      ) : null}
    </div>
  );
}
