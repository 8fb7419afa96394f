import { cohortCreateSchema, type CohortCreateInput } from '@/contract/cohorts';
import type { Path } from 'react-hook-form';
import { z } from '@/contract/z';
import { attrToFieldPath } from '@/components/form-kit';
import {
  criterionFieldOf,
  newCriterion,
  shownFields,
  toFilters,
  type CriterionRow,
  type Match,
} from './cohort-criteria';

export type CohortType = 'dynamic' | 'static';
/** The new-cohort form: the cohort's text, its type, and the CSV (static) or the criteria (dynamic). */
export interface NewCohortValues {
  name: string;
  description: string;
  kind: CohortType;
  csv: File | null;
  match: Match;
  rows: CriterionRow[];
}
/** What the form sends: the body, and the file whose text becomes its `csv` (read only once valid). */
export interface NewCohortDraft {
  body: CohortCreateInput;
  file: File | null;
}

export const newCohortDefaults = (): NewCohortValues => ({
  name: '',
  description: '',
  kind: 'dynamic',
  csv: null,
  match: 'AND',
  rows: [newCriterion()],
});

export const CSV_REQUIRED = 'Choose a CSV file of distinct ids or emails.';

const toBody = (v: NewCohortValues): CohortCreateInput =>
  v.kind === 'static'
    ? { name: v.name, description: v.description, is_static: true }
    : { name: v.name, description: v.description, filters: toFilters(v.match, v.rows) };

/** The form's fields an error can land on: those shown for its type and each row's kind. */
export function shownPaths(v: Pick<NewCohortValues, 'kind' | 'rows'>): Path<NewCohortValues>[] {
  const about = ['name', 'description'] as const;
  if (v.kind === 'static') return [...about, 'csv'];
  return [...about, ...v.rows.flatMap((row, i) => shownFields(row).map((f) => `rows.${i}.${f}` as const))];
}

/** An attr (the API's, or a contract issue's path joined the same way) → the form's path. */
export function fieldOfAttr(attr: string, rows: readonly CriterionRow[]): string {
  const criterion = criterionFieldOf(attr, rows);
  return criterion ? `rows.${criterion[0]}.${criterion[1]}` : attrToFieldPath(attr);
}

/**
 * The form's schema: the body it would send checked with the contract's cohort schema, each
 * issue on the field that shows it (a criterion's on its row); a static cohort needs its file.
 * Issues no shown field owns are left to the server, whose refusal is the form's error.
 */
export const newCohortSchema: z.ZodMiniType<NewCohortDraft, NewCohortValues> = z.pipe(
  z.custom<NewCohortValues>().check(
    z.superRefine((v, ctx) => {
      if (v.kind === 'static' && !v.csv)
        ctx.addIssue({ code: 'custom', path: ['csv'], message: CSV_REQUIRED, input: v.csv });
      const result = cohortCreateSchema.safeParse(toBody(v));
      if (result.success) return;
      const shown: readonly string[] = shownPaths(v);
      const seen = new Set<string>();
      for (const issue of result.error.issues) {
        const path = fieldOfAttr(issue.path.join('__'), v.rows);
        if (!shown.includes(path) || seen.has(path)) continue;
        seen.add(path);
        ctx.addIssue({
          code: 'custom',
          path: path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
          message: issue.message,
          input: v,
        });
      }
    }),
  ),
  z.transform((v) => ({ body: toBody(v), file: v.kind === 'static' ? v.csv : null })),
);
