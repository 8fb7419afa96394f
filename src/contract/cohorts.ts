import { z } from './z';
import {
  dictType,
  isRecord,
  PROPERTY_KEY_MAX,
  PROPERTY_OPERATORS,
  filterValueSchema,
  VALUELESS_OPERATORS,
} from './analytics-filters';
import { endpoint, listQuerySchema, nullableTimestampSchema, pageSchema } from './common';
import { blankableText, bool, choice, integer, list, MESSAGES, text, typeError } from './fields';
import { funnelPersonSchema } from './persons';
import { nullableUserSchema } from './users';

/**
 * `{PRJ}/cohorts/`: saved sets of persons, in the production service's shape (docs/api.md,
 * "Cohorts"). A static cohort is a list of persons (from an uploaded CSV of distinct ids or
 * emails, or person ids); a dynamic one is computed from `filters.properties`, an AND/OR group
 * of criteria on person properties and on events done in a recent window. Membership is
 * computed when the cohort is created or changed and kept beside the events, where analyses
 * read it (`{type: "cohort", key: "id", value: <id>}` filters, `breakdown_type: "cohort"`).
 */

/** `value` of a behavioural criterion: did the event at least once, N times (operator), or not at all. */
export const BEHAVIORAL_VALUES = ['performed_event', 'performed_event_multiple', 'not_performed_event'] as const;
export type BehavioralValue = (typeof BEHAVIORAL_VALUES)[number];
/** How `performed_event_multiple` compares the count with `operator_value`. */
export const COUNT_OPERATORS = ['gte', 'lte', 'exact', 'gt', 'lt'] as const;
export type CountOperator = (typeof COUNT_OPERATORS)[number];
/** Units of the window ending now: `time_value` of them. */
export const COHORT_TIME_INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type CohortTimeInterval = (typeof COHORT_TIME_INTERVALS)[number];
/** Most days a behavioural window may reach back (ten years). */
const MAX_WINDOW = { hour: 24 * 3660, day: 3660, week: 523, month: 120, year: 10 } as const;

/** A person property criterion: the analyses' property operators over the person's properties. */
export const cohortPersonCriterionSchema = z
  .object({
    type: z.literal('person'),
    key: text(PROPERTY_KEY_MAX),
    operator: z._default(choice(PROPERTY_OPERATORS), 'exact'),
    value: z.optional(z.nullable(filterValueSchema)),
    negation: z._default(bool(), false),
  })
  .check(
    z.superRefine((f, ctx) => {
      if (VALUELESS_OPERATORS.includes(f.operator)) return;
      const empty = f.value === undefined || f.value === null || (Array.isArray(f.value) && f.value.length === 0);
      if (empty) ctx.addIssue({ code: 'custom', path: ['value'], message: MESSAGES.required, input: f.value });
      else if (
        (f.operator === 'gt' || f.operator === 'lt') &&
        (Array.isArray(f.value) || f.value === '' || Number.isNaN(Number(f.value)))
      ) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: MESSAGES.number, input: f.value });
      }
    }),
  );
export type CohortPersonCriterion = z.infer<typeof cohortPersonCriterionSchema>;

/** A behavioural criterion: the person did event `key` (at least once, N times, or never) in the last `time_value` `time_interval`s. */
export const cohortBehavioralCriterionSchema = z
  .object({
    type: z.literal('behavioral'),
    key: text(PROPERTY_KEY_MAX),
    value: choice(BEHAVIORAL_VALUES),
    event_type: z._default(choice(['events']), 'events'),
    time_value: integer({ min: 1, max: MAX_WINDOW.hour }),
    time_interval: choice(COHORT_TIME_INTERVALS),
    operator: z.optional(z.nullable(choice(COUNT_OPERATORS))),
    operator_value: z.optional(z.nullable(integer({ min: 0, max: 1_000_000 }))),
    negation: z._default(bool(), false),
  })
  .check(
    z.superRefine((f, ctx) => {
      if (f.time_value > MAX_WINDOW[f.time_interval]) {
        ctx.addIssue({
          code: 'custom',
          path: ['time_value'],
          input: f.time_value,
          message: `At most ${MAX_WINDOW[f.time_interval]} ${f.time_interval}s.`,
        });
      }
      if (f.value === 'performed_event_multiple' && (f.operator_value === undefined || f.operator_value === null)) {
        ctx.addIssue({ code: 'custom', path: ['operator_value'], input: f.operator_value, message: MESSAGES.required });
      }
    }),
  );
export type CohortBehavioralCriterion = z.infer<typeof cohortBehavioralCriterionSchema>;

export type CohortCriterion = CohortPersonCriterion | CohortBehavioralCriterion;
export interface CohortCriteriaGroup {
  type: 'AND' | 'OR';
  values: Array<CohortCriterion | CohortCriteriaGroup>;
}

const GROUP_TYPES = ['AND', 'OR'] as const;
/** Most criteria in one cohort, groups' criteria included. */
export const MAX_COHORT_CRITERIA = 50;

const criterionError = (iss: { input?: unknown }) => {
  const t = isRecord(iss.input) ? iss.input.type : undefined;
  if (t === undefined) return MESSAGES.required;
  return t === 'cohort'
    ? 'A cohort cannot be defined from another cohort here: use person or behavioral criteria.'
    : `"${String(t)}" is not a valid choice.`;
};
/** A group inside the top group: criteria only. */
const innerGroupSchema = z.object(
  {
    type: choice(GROUP_TYPES),
    values: list(
      z.discriminatedUnion(
        'type',
        [
          cohortPersonCriterionSchema,
          cohortBehavioralCriterionSchema,
          z.pipe(
            z.object({ type: choice(GROUP_TYPES) }).check(
              z.superRefine((_, ctx) => {
                ctx.addIssue({
                  code: 'custom',
                  path: ['values'],
                  message: 'Groups of criteria can be nested one level deep.',
                });
              }),
            ),
            z.transform((v) => v as never),
          ),
        ],
        { error: criterionError },
      ),
      MAX_COHORT_CRITERIA,
    ),
  },
  { error: dictType },
);
/** The top group: criteria, or groups of criteria (one level of nesting, as the production service's editor makes them). */
export const cohortCriteriaGroupSchema = z
  .object(
    {
      type: choice(GROUP_TYPES),
      values: list(
        z.discriminatedUnion('type', [cohortPersonCriterionSchema, cohortBehavioralCriterionSchema, innerGroupSchema], {
          error: criterionError,
        }),
        MAX_COHORT_CRITERIA,
      ),
    },
    { error: dictType },
  )
  .check(
    z.superRefine((g, ctx) => {
      const n = g.values.reduce((sum, v) => sum + ('values' in v ? v.values.length : 1), 0);
      if (n > MAX_COHORT_CRITERIA)
        ctx.addIssue({
          code: 'custom',
          path: ['values'],
          input: n,
          message: `A cohort has at most ${MAX_COHORT_CRITERIA} criteria.`,
        });
    }),
  );

/** A group's values as the reading side sees them (the inner group shape is the same). */
export const cohortFiltersSchema = z.object({ properties: cohortCriteriaGroupSchema }, { error: dictType });
export type CohortFilters = { properties: CohortCriteriaGroup };

export const cohortSchema = z.looseObject({
  id: z.int(),
  name: z.nullable(z.string()),
  description: z.string(),
  /** The production service's older criteria form; always empty here (criteria are in `filters`). */
  groups: z.array(z.unknown()),
  filters: z.nullable(
    z.looseObject({ properties: z.looseObject({ type: z.enum(GROUP_TYPES), values: z.array(z.unknown()) }) }),
  ),
  deleted: z.boolean(),
  is_static: z.boolean(),
  is_calculating: z.boolean(),
  created_by: nullableUserSchema,
  created_at: nullableTimestampSchema,
  last_calculation: nullableTimestampSchema,
  errors_calculating: z.int(),
  count: z.nullable(z.int()),
});
export type Cohort = z.infer<typeof cohortSchema>;

/**
 * A multipart form sends every field as text (`is_static=true`, `filters={"properties":…}`):
 * such text is read as the JSON value it spells before the field's own check.
 */
function fromFormText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (v === 'true' || v === 'True') return true;
  if (v === 'false' || v === 'False') return false;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}
const formValue = <T extends z.ZodMiniType>(s: T) => z.pipe(z.transform(fromFormText), s);

/** A person id: any 8-4-4-4-12 hex UUID (persons' ids need not carry an RFC version). */
const personId = () => z.guid({ error: typeError(MESSAGES.uuid) });

/** The uploaded CSV (multipart field `csv`): its text. */
const csvSchema = z
  .string({ error: 'Upload a CSV file of distinct ids or emails.' })
  .check(z.maxLength(5 * 1024 * 1024, { error: 'The CSV file is larger than 5 MB.' }));

const writable = {
  name: z.optional(z.nullable(blankableText(400))),
  description: z.optional(blankableText(1000)),
  filters: z.optional(z.nullable(formValue(cohortFiltersSchema))),
  deleted: z.optional(formValue(bool())),
};

export const cohortCreateSchema = z
  .object({
    ...writable,
    is_static: z.optional(formValue(bool())),
    /** Static: the uploaded file's text, one distinct id or email per row (first column). */
    csv: z.optional(csvSchema),
    /** Static: person ids (UUIDs) to put in the cohort, as the production service's `_create_static_person_ids`. */
    _create_static_person_ids: z.optional(formValue(list(personId(), 10_000))),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (!v.is_static && !v.filters) {
        ctx.addIssue({
          code: 'custom',
          path: ['filters'],
          input: v.filters,
          message: 'A dynamic cohort needs criteria: give filters, or make it static.',
        });
      }
      if (!v.is_static && (v.csv !== undefined || v._create_static_person_ids !== undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['is_static'],
          input: v.is_static,
          message: 'Only a static cohort takes a list of persons.',
        });
      }
    }),
  );
export type CohortCreate = z.infer<typeof cohortCreateSchema>;
export type CohortCreateInput = z.input<typeof cohortCreateSchema>;

/** PATCH: a static cohort's CSV adds its persons; changed filters recompute a dynamic one. */
export const cohortUpdateSchema = z.object({
  ...writable,
  csv: z.optional(csvSchema),
});
export type CohortUpdate = z.infer<typeof cohortUpdateSchema>;
export type CohortUpdateInput = z.input<typeof cohortUpdateSchema>;

export const cohortAddPersonsSchema = z.object({ person_ids: list(personId(), 10_000) });
export type CohortAddPersons = z.infer<typeof cohortAddPersonsSchema>;
export const cohortRemovePersonSchema = z.object({ person_id: personId() });

/** `persons/`: a page of the cohort's persons, by person id (the production service's shape, with `count`). */
export const cohortPersonsSchema = z.looseObject({
  results: z.array(funnelPersonSchema),
  next: z.nullable(z.string()),
  previous: z.nullable(z.string()),
  count: z.optional(z.int()),
});
export type CohortPersons = z.infer<typeof cohortPersonsSchema>;

const params = z.object({ project_id: z.string() });
const idParams = z.object({
  project_id: z.string(),
  id: z.coerce.number({ error: MESSAGES.integer }).check(z.int({ error: MESSAGES.integer }), z.positive()),
});
const base = '/api/projects/:project_id/cohorts/' as const;

export const cohortEndpoints = {
  list: endpoint({
    method: 'GET',
    path: base,
    access: 'cohort:read',
    summary: 'List the cohorts of a project (not deleted), newest first',
    params,
    query: listQuerySchema,
    status: 200,
    response: pageSchema(cohortSchema),
    extension: true,
  }),
  create: endpoint({
    method: 'POST',
    path: base,
    access: 'cohort:write',
    summary: 'Create a cohort (static from a CSV upload or person ids, or dynamic from criteria)',
    params,
    body: cohortCreateSchema,
    multipart: true,
    status: 201,
    response: cohortSchema,
    extension: true,
  }),
  retrieve: endpoint({
    method: 'GET',
    path: `${base}:id/`,
    access: 'cohort:read',
    summary: 'Retrieve a cohort',
    params: idParams,
    status: 200,
    response: cohortSchema,
    extension: true,
  }),
  update: endpoint({
    method: 'PATCH',
    path: `${base}:id/`,
    access: 'cohort:write',
    summary: 'Update a cohort (deleted: true soft-deletes it)',
    params: idParams,
    body: cohortUpdateSchema,
    multipart: true,
    status: 200,
    response: cohortSchema,
    extension: true,
  }),
  destroy: endpoint({
    method: 'DELETE',
    path: `${base}:id/`,
    access: 'cohort:write',
    summary: 'Not allowed: set deleted to true with PATCH',
    params: idParams,
    status: 405,
    extension: true,
  }),
  persons: endpoint({
    method: 'GET',
    path: `${base}:id/persons/`,
    access: 'cohort:read',
    summary: 'The persons of a cohort',
    params: idParams,
    query: listQuerySchema,
    status: 200,
    response: cohortPersonsSchema,
    extension: true,
  }),
  addPersons: endpoint({
    method: 'PATCH',
    path: `${base}:id/add_persons_to_static_cohort/`,
    access: 'cohort:write',
    summary: 'Add persons to a static cohort',
    params: idParams,
    body: cohortAddPersonsSchema,
    status: 200,
    response: cohortSchema,
    extension: true,
  }),
  removePerson: endpoint({
    method: 'PATCH',
    path: `${base}:id/remove_person_from_static_cohort/`,
    access: 'cohort:write',
    summary: 'Remove a person from a static cohort',
    params: idParams,
    body: cohortRemovePersonSchema,
    status: 200,
    response: cohortSchema,
    extension: true,
  }),
};
