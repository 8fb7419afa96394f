import type { BatchExport } from '@/contract/batch-exports';
import { CachedName } from '@/components/layout/cached-name';
import { batchExportKeys } from '../api/batch-exports.keys';

/** The export's name (breadcrumbs). */
export function BatchExportName({ organizationId, batchExportId }: { organizationId: string; batchExportId: string }) {
  return (
    <CachedName<BatchExport> queryKey={batchExportKeys.detail(organizationId, batchExportId)} name={(e) => e.name} />
  );
}
