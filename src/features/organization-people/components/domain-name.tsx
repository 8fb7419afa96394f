import type { Domain } from '@/contract/domains';
import { CachedName } from '@/components/layout/cached-name';
import { peopleKeys } from '../api/people.keys';

/** The domain's name (breadcrumbs). */
export function DomainName({ organizationId, domainId }: { organizationId: string; domainId: string }) {
  return <CachedName<Domain> queryKey={peopleKeys.domainDetail(organizationId, domainId)} name={(d) => d.domain} />;
}
