import type { CohortLookup } from '../../../analytics/types.ts';
import type { Store } from '../../../store/store.ts';

/** What an analysis of project `teamId` may name: its cohorts that are not deleted (a 400 names any other). */
export function cohortLookup(store: Store, teamId: number): CohortLookup {
  return (id) => {
    const row = store.cohorts.get(id);
    return row && row.team_id === teamId && row.deleted === 0 ? { id, name: row.name ?? `Cohort ${id}` } : null;
  };
}
