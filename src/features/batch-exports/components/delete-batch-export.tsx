import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { batchExportEndpoints, type BatchExport } from '@/contract/batch-exports';
import { ConfirmDelete } from '@/components/feedback/confirm-delete';
import { forgetBatchExport, useDeleteBatchExport } from '../api/batch-exports.mutations';

interface DeleteBatchExportProps {
  organizationId: string;
  batchExport: BatchExport;
  /** Leaves the export's pages (called before the cache forgets it). */
  onDeleted: () => Promise<void>;
}

/** "Delete", behind a confirm dialog that names the export. */
export function DeleteBatchExport({ organizationId, batchExport, onDeleted }: DeleteBatchExportProps) {
  const queryClient = useQueryClient();
  const { mutateAsync } = useDeleteBatchExport(organizationId, batchExport.id);
  return (
    <ConfirmDelete
      triggerLabel="Delete"
      scope={batchExportEndpoints.destroy.access}
      title="Delete batch export"
      description={
        <>
          This permanently deletes <strong>{batchExport.name}</strong> with its runs and logs. Data already exported
          stays where it is.
        </>
      }
      confirmLabel={`Delete ${batchExport.name}`}
      onConfirm={async () => {
        await mutateAsync();
        toast.success(`Batch export “${batchExport.name}” deleted`);
        await onDeleted();
        forgetBatchExport(queryClient, organizationId, batchExport.id);
      }}
    />
  );
}
