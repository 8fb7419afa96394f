import { useSuspenseQuery } from '@tanstack/react-query';
import { Pause, Play, Plus } from 'lucide-react';
import { useCallback, useState, type ReactNode } from 'react';
import { batchExportEndpoints, type BatchExport } from '@/contract/batch-exports';
import { Pagination } from '@/components/data-table/pagination';
import { EmptyState } from '@/components/feedback/empty-state';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { useSetPaused } from '../api/batch-exports.mutations';
import { pageParams } from '@/lib/page-search';
import { batchExportQueries } from '../api/batch-exports.queries';
import { BatchExportsPageHeader as PageHeader } from './batch-exports-page-header';
import { BatchExportsTable } from './batch-exports-table';

export interface BatchExportsPageProps {
  organizationId: string;
  /** 1-based page number, from the URL. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onCreate: () => void;
}

function BulkActions({
  selected,
  onPause,
  onUnpause,
  onClear,
}: {
  selected: BatchExport[];
  onPause: () => void;
  onUnpause: () => void;
  onClear: () => void;
}) {
  return (
    <div
      role="group"
      aria-label="Selected batch exports"
      className="mb-3 flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm dark:border-indigo-900 dark:bg-indigo-950"
    >
      <span className="font-medium" aria-live="polite">
        {selected.length} selected
      </span>
      <ScopedAction scope={batchExportEndpoints.pause.access}>
        <Button size="sm" onClick={onPause} disabled={selected.every((item) => item.paused)}>
          <Pause aria-hidden="true" className="size-4" />
          Pause selected
        </Button>
      </ScopedAction>
      <ScopedAction scope={batchExportEndpoints.unpause.access}>
        <Button size="sm" onClick={onUnpause} disabled={selected.every((item) => !item.paused)}>
          <Play aria-hidden="true" className="size-4" />
          Unpause selected
        </Button>
      </ScopedAction>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}

/** The organization's batch exports with server pagination (page and page size in the URL). */
export function BatchExportsPage({ organizationId, page, pageSize, onPageChange, onCreate }: BatchExportsPageProps) {
  const { data } = useSuspenseQuery(batchExportQueries.list(organizationId, pageParams(page, pageSize)));
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(() => new Set());
  const { mutate } = useSetPaused(organizationId);
  const onPausedChange = useCallback((batchExport: BatchExport, paused: boolean) => mutate({ batchExport, paused }), [mutate]);

  const selected = data.results.filter((item) => selectedIds.has(item.id));
  const setAll = (paused: boolean) => {
    for (const item of selected) if (item.paused !== paused) mutate({ batchExport: item, paused });
  };

  const action = (
    <ScopedAction scope={batchExportEndpoints.create.access}>
      <Button variant="primary" onClick={onCreate}>
        <Plus aria-hidden="true" className="size-4" />
        New batch export
      </Button>
    </ScopedAction>
  );

  let body: ReactNode;
  if (data.count === 0) {
    body = (
      <EmptyState title="No batch exports yet">
        Use “New batch export” to send this organization's events to S3, a warehouse or an HTTP endpoint on a schedule.
      </EmptyState>
    );
  } else if (data.results.length === 0) {
    body = (
      <EmptyState title="Nothing on this page" action={<Button onClick={() => onPageChange(1)}>Go to the first page</Button>}>
        There are {data.count} batch exports, but page {page} is past the last one.
      </EmptyState>
    );
  } else {
    body = (
      <>
        {selected.length > 0 ? (
          <BulkActions
            selected={selected}
            onPause={() => setAll(true)}
            onUnpause={() => setAll(false)}
            onClear={() => setSelectedIds(new Set())}
          />
        ) : null}
        <BatchExportsTable
          organizationId={organizationId}
          batchExports={data.results}
          selected={selectedIds}
          onSelectedChange={setSelectedIds}
          onPausedChange={onPausedChange}
        />
        <Pagination label="Batch exports" page={page} pageSize={pageSize} count={data.count} onPageChange={onPageChange} />
      </>
    );
  }

  return (
    <>
      <PageHeader action={action} />
      {body}
    </>
  );
}
