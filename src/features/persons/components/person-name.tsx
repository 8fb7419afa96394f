import type { FunnelPerson } from '@/contract/persons';
import { CachedName } from '@/components/layout/cached-name';
import { personKeys } from '../api/persons.keys';

/** The person's name (breadcrumbs, the tab's title), from the cache the person route's loader fills. */
export function PersonName({ projectId, personId }: { projectId: number; personId: string }) {
  return <CachedName<FunnelPerson> queryKey={personKeys.detail(projectId, personId)} name={(p) => p.name} />;
}
