import { skipToken, useQuery } from '@tanstack/react-query';
import type { BatchExport } from '@/contract/batch-exports';
import { batchExportKeys } from '../api/batch-exports.keys';

/**
 * The export's name (breadcrumbs), from the cache the route's loader fills; a placeholder until
 * then. It never fetches itself, so the route tree does not carry the contract.
 */
export function BatchExportName({ organizationId, batchExportId }: { organizationId: string; batchExportId: string }) {
  const { data } = useQuery<BatchExport>({ queryKey: batchExportKeys.detail(organizationId, batchExportId), queryFn: skipToken });
  return <>{data?.name ?? '…'}</>;
}
