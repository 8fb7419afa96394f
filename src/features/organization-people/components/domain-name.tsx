import { skipToken, useQuery } from '@tanstack/react-query';
import type { Domain } from '@/contract/domains';
import { peopleKeys } from '../api/people.keys';

/**
 * The domain's name (breadcrumbs), from the cache the route's loader fills; a placeholder until
 * then. It never fetches itself, so the route tree does not carry the contract.
 */
export function DomainName({ organizationId, domainId }: { organizationId: string; domainId: string }) {
  const { data } = useQuery<Domain>({ queryKey: peopleKeys.domainDetail(organizationId, domainId), queryFn: skipToken });
  return <>{data?.domain ?? '…'}</>;
}
