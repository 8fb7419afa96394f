import type { Cohort } from '@/contract/cohorts';

/** A cohort's kind and size in words. */
export const cohortKind = (c: Pick<Cohort, 'is_static'>) => (c.is_static ? 'Static' : 'Dynamic');
export const cohortSize = (c: Pick<Cohort, 'count' | 'is_calculating'>) =>
  c.is_calculating
    ? 'Calculating…'
    : c.count === null
      ? '—'
      : `${c.count.toLocaleString('en-US')} ${c.count === 1 ? 'person' : 'persons'}`;
export const cohortName = (c: Pick<Cohort, 'id' | 'name'>) => c.name || `Cohort ${c.id}`;
