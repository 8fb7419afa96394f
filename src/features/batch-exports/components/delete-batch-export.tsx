import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { batchExportEndpoints, type BatchExport } from '@/contract/batch-exports';
import { describeError } from '@/lib/error-messages';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, ConfirmDialogCancel } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form-field';
import { forgetBatchExport, useDeleteBatchExport } from '../api/batch-exports.mutations';

interface DeleteBatchExportProps {
  organizationId: string;
  batchExport: BatchExport;
  /** Leaves the export's pages (called before the cache forgets it). */
  onDeleted: () => Promise<void>;
}

/** "Delete", behind a confirm dialog that names the export. */
export function DeleteBatchExport({ organizationId, batchExport, onDeleted }: DeleteBatchExportProps) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const deleteBatchExport = useDeleteBatchExport(organizationId, batchExport.id);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) deleteBatchExport.reset();
  };
  const confirm = () =>
    deleteBatchExport.mutate(undefined, {
      onSuccess: async () => {
        toast.success(`Batch export “${batchExport.name}” deleted`);
        await onDeleted();
        await forgetBatchExport(queryClient, organizationId, batchExport.id);
      },
    });
  return (
    <>
      <ScopedAction scope={batchExportEndpoints.destroy.access}>
        <Button variant="danger" onClick={() => onOpenChange(true)}>
          <Trash2 aria-hidden="true" className="size-4" />
          Delete
        </Button>
      </ScopedAction>
      <ConfirmDialog
        open={open}
        onOpenChange={onOpenChange}
        title="Delete batch export"
        description={
          <>
            This permanently deletes <strong>{batchExport.name}</strong> with its runs and logs. Data already exported stays
            where it is.
          </>
        }
      >
        <div className="space-y-4">
          <FormError message={deleteBatchExport.isError ? describeError(deleteBatchExport.error) : undefined} />
          <div className="flex justify-end gap-2">
            <ConfirmDialogCancel asChild>
              <Button>Cancel</Button>
            </ConfirmDialogCancel>
            <Button variant="danger" onClick={confirm} disabled={deleteBatchExport.isPending}>
              {deleteBatchExport.isPending ? 'Deleting…' : `Delete ${batchExport.name}`}
            </Button>
          </div>
        </div>
      </ConfirmDialog>
    </>
  );
}
