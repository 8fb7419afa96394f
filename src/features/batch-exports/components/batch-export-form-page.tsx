import { useSuspenseQuery } from '@tanstack/react-query';
import type { BatchExport } from '@/contract/batch-exports';
import { EmptyState } from '@/components/feedback/empty-state';
import { PageTitle } from '@/components/layout/page-title';
import { batchExportQueries } from '../api/batch-exports.queries';
import { BatchExportForm } from './batch-export-form';
import { isKnownDestinationType } from './form-values';

interface Callbacks {
  onSaved: (batchExport: BatchExport) => void;
  onCancel: () => void;
}

export function NewBatchExportPage({ organizationId, ...callbacks }: { organizationId: string } & Callbacks) {
  return (
    <div className="space-y-6">
      <PageTitle
        title="New batch export"
        description="Export this organization's data to another system on a schedule."
      />
      <BatchExportForm organizationId={organizationId} {...callbacks} />
    </div>
  );
}

export function EditBatchExportPage({
  organizationId,
  batchExportId,
  ...callbacks
}: { organizationId: string; batchExportId: string } & Callbacks) {
  const { data: batchExport } = useSuspenseQuery(batchExportQueries.detail(organizationId, batchExportId));
  return (
    <div className="space-y-6">
      <PageTitle
        title={`Edit ${batchExport.name}`}
        description="Secrets are never shown: leave them blank to keep them."
      />
      {isKnownDestinationType(batchExport.destination.type) ? (
        <BatchExportForm
          key={batchExport.id}
          organizationId={organizationId}
          batchExport={batchExport}
          {...callbacks}
        />
      ) : (
        <EmptyState title="This destination can't be edited here">
          The server uses a destination type ({batchExport.destination.type}) this dashboard does not know.
        </EmptyState>
      )}
    </div>
  );
}
