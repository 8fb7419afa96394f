import type { PropertyGroup } from '../../../src/contract/analytics.ts';
import { AnalyticsParamError } from '../errors.ts';
import { checkCohort } from './filters.ts';
import type { CohortLookup } from '../types.ts';

/**
 * `breakdown_type: cohort` (docs/api.md, "Cohorts"): `breakdown` is a list of cohort ids
 * (`"all"` for every person; one id, or its JSON list as text, also do). The analysis runs once
 * per listed cohort, restricted to its persons by a cohort filter, and each run's series or
 * steps are that cohort's: labelled with its name ("all users" for `all`), `breakdown_value`
 * its id. The cohorts keep the order they are listed in; a cohort with no events still has its
 * (zero) series.
 */

export interface CohortSplit {
  value: number | 'all';
  label: string;
}

export const ALL_USERS_LABEL = 'all users';

/** The listed values of a cohort breakdown, as given (numbers, digits, `all`, or a JSON list as text). */
function listed(breakdown: unknown): unknown[] {
  if (Array.isArray(breakdown)) return breakdown;
  if (typeof breakdown === 'string' && breakdown.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(breakdown);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not a list: read as one value below
    }
  }
  return [breakdown];
}

/** The cohorts a request breaks down by, checked (a 400 on `breakdown`); null when it is no cohort breakdown. */
export function cohortSplitOf(
  p: { breakdown?: unknown; breakdown_type: string },
  cohorts: CohortLookup | undefined,
): CohortSplit[] | null {
  if (p.breakdown_type !== 'cohort' || p.breakdown === null || p.breakdown === undefined) return null;
  const values = listed(p.breakdown);
  if (values.length === 0) throw new AnalyticsParamError('breakdown', 'Enter at least one cohort id (or "all").');
  const out: CohortSplit[] = [];
  for (const v of values) {
    if (v === 'all' || v === 0 || v === '0') {
      if (!out.some((x) => x.value === 'all')) out.push({ value: 'all', label: ALL_USERS_LABEL });
      continue;
    }
    const cohort = checkCohort(v, 'breakdown', cohorts);
    if (!out.some((x) => x.value === cohort.id)) out.push({ value: cohort.id, label: cohort.name });
  }
  return out;
}

/** The request restricted to one cohort's persons, without the breakdown. */
export function restrictedTo<
  P extends { properties?: PropertyGroup | undefined; breakdown?: unknown; breakdown_type: string },
>(p: P, split: CohortSplit): P {
  const { breakdown: _breakdown, ...rest } = p;
  if (split.value === 'all') return { ...rest, breakdown_type: 'event' } as P;
  const filter = { key: 'id', type: 'cohort' as const, operator: 'in' as const, value: split.value };
  const properties = {
    type: 'AND' as const,
    values: [...(p.properties?.values.length ? [p.properties] : []), filter],
  } as PropertyGroup;
  return { ...rest, breakdown_type: 'event', properties } as P;
}

/** Runs lists per cohort → one list, item i of every cohort together (period, then series, then cohort order). */
export function interleave<T>(runs: readonly T[][]): T[] {
  const out: T[] = [];
  const n = Math.max(0, ...runs.map((r) => r.length));
  for (let i = 0; i < n; i++) for (const run of runs) if (i < run.length) out.push(run[i]!);
  return out;
}
