import { z } from './z';
import { ANALYTICS_LIMITS, HOGQL_LIMITS } from './analytics-limits';
import { choice, choiceMessage, integer, list, MESSAGES, pythonTypeName, text } from './fields';

/**
 * Property filters of the analysis parameters: one filter, the AND/OR groups (one level of
 * nesting) and the legacy flat list, with the per-query filter budget.
 */

export const PROPERTY_OPERATORS = [
  'exact',
  'is_not',
  'icontains',
  'not_icontains',
  'regex',
  'not_regex',
  'gt',
  'lt',
  'is_set',
  'is_not_set',
] as const;
export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number];
/** Each property operator in words, as the dashboard's pickers show it. */
export const OPERATOR_WORDS: Record<PropertyOperator, string> = {
  exact: 'equals',
  is_not: "doesn't equal",
  icontains: 'contains',
  not_icontains: "doesn't contain",
  regex: 'matches regex',
  not_regex: "doesn't match regex",
  gt: 'greater than',
  lt: 'less than',
  is_set: 'is set',
  is_not_set: 'is not set',
};
/** Operators that take no value. */
export const VALUELESS_OPERATORS: readonly PropertyOperator[] = ['is_set', 'is_not_set'];
export const PROPERTY_TYPES = ['event', 'person'] as const;
/** Operators of a cohort filter: the person is (`in`) or is not (`not_in`) in the cohort. */
export const COHORT_OPERATORS = ['in', 'not_in'] as const;
export const FILTER_OPERATORS = [...PROPERTY_OPERATORS, ...COHORT_OPERATORS] as const;
/**
 * Types of a property filter: a property, a session property (`$session_duration`, …), a
 * HogQL condition whose `key` is the expression (docs/hogql.md; no value or operator needed),
 * a cohort (`{type: 'cohort', key: 'id', value: <cohort id>, operator: 'in' | 'not_in'}`), or a
 * property of the event's group of type `group_type_index` (`{type: 'group', group_type_index: 0, …}`).
 */
export const FILTER_TYPES = [...PROPERTY_TYPES, 'session', 'hogql', 'cohort', 'group'] as const;
/** Group types of a project are numbered 0 to this (docs/api.md, "Groups"). */
export const GROUP_TYPE_INDEX_MAX = 4;
/** A group type's index, as aggregation, filters and breakdowns name it. */
export const groupTypeIndexSchema = integer({ min: 0, max: GROUP_TYPE_INDEX_MAX });

/** A cohort filter's cohort id (a number, or its digits as text), or null when it names none. */
export function cohortIdOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}
export const PROPERTY_GROUP_TYPES = ['AND', 'OR'] as const;
/** Property names are free text up to 400 characters (docs/api.md). */
export const PROPERTY_KEY_MAX = 400;

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** The DRF text for a value that should be a dictionary. */
export const dictType = (iss: { input?: unknown }) =>
  iss.input === undefined
    ? MESSAGES.required
    : iss.input === null
      ? MESSAGES.null
      : `Expected a dictionary of items but got type "${pythonTypeName(iss.input)}".`;

// ---------------------------------------------------------------------------------------------
// Property filters and groups
// ---------------------------------------------------------------------------------------------

const valueTextSchema = z.string().check(
  z.maxLength(ANALYTICS_LIMITS.valueLength, {
    error: `Ensure this value has no more than ${ANALYTICS_LIMITS.valueLength} characters.`,
  }),
);
export const filterValueSchema = z.union(
  [
    valueTextSchema,
    z.number(),
    z.boolean(),
    z.array(z.union([valueTextSchema, z.number(), z.boolean()])).check(
      z.maxLength(ANALYTICS_LIMITS.filterValues, {
        error: `Ensure this field has no more than ${ANALYTICS_LIMITS.filterValues} elements.`,
      }),
    ),
  ],
  {
    error: (iss) =>
      iss.input === undefined ? MESSAGES.required : 'Enter a text, a number, a boolean or a list of them.',
  },
);

export const propertyFilterSchema = z
  .object({
    key: text(HOGQL_LIMITS.length),
    value: z.optional(z.nullable(filterValueSchema)),
    operator: choice(FILTER_OPERATORS),
    type: choice(FILTER_TYPES),
    group_type_index: z.optional(z.nullable(groupTypeIndexSchema)),
  })
  .check(
    z.superRefine((f, ctx) => {
      if (f.type === 'hogql') return;
      if (f.type === 'group' && (f.group_type_index === undefined || f.group_type_index === null)) {
        ctx.addIssue({
          code: 'custom',
          path: ['group_type_index'],
          message: 'Enter the index of the group type whose property this is.',
          input: f.group_type_index,
        });
      }
      if (f.type === 'cohort') {
        // `exact` is what a client that leaves the operator out gets elsewhere: it means `in` here.
        if (!(COHORT_OPERATORS as readonly string[]).includes(f.operator) && f.operator !== 'exact') {
          ctx.addIssue({
            code: 'custom',
            path: ['operator'],
            message: 'A cohort filter takes the operator in or not_in.',
            input: f.operator,
          });
        }
        if (cohortIdOf(f.value) === null)
          ctx.addIssue({ code: 'custom', path: ['value'], message: 'Enter the id of a cohort.', input: f.value });
        return;
      }
      if ((COHORT_OPERATORS as readonly string[]).includes(f.operator)) {
        ctx.addIssue({ code: 'custom', path: ['operator'], message: choiceMessage(f.operator), input: f.operator });
        return;
      }
      if (f.key.length > PROPERTY_KEY_MAX) {
        ctx.addIssue({
          code: 'custom',
          path: ['key'],
          message: `Ensure this field has no more than ${PROPERTY_KEY_MAX} characters.`,
          input: f.key,
        });
      }
      if ((VALUELESS_OPERATORS as readonly string[]).includes(f.operator)) return;
      const empty = f.value === undefined || f.value === null || (Array.isArray(f.value) && f.value.length === 0);
      if (empty) ctx.addIssue({ code: 'custom', path: ['value'], message: MESSAGES.required, input: f.value });
      else if (
        (f.operator === 'gt' || f.operator === 'lt') &&
        (Array.isArray(f.value) || Number.isNaN(Number(f.value)) || f.value === '')
      ) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: MESSAGES.number, input: f.value });
      }
    }),
  );
export type PropertyFilter = z.infer<typeof propertyFilterSchema>;

/** Fills what production clients leave out: a filter's `type` (event), `operator` (exact; a cohort's `in`); a group's type (AND). */
function fillPropertyDefaults(v: unknown): unknown {
  if (!isRecord(v)) return v;
  if ('values' in v) return v.type === undefined || v.type === null ? { ...v, type: 'AND' } : v;
  return { ...v, type: v.type ?? 'event', operator: v.operator ?? (v.type === 'cohort' ? 'in' : 'exact') };
}

const groupTypeSchema = choice(PROPERTY_GROUP_TYPES);
const discriminatorError = (iss: { input?: unknown }) => {
  const t = isRecord(iss.input) ? iss.input.type : undefined;
  return t === undefined ? MESSAGES.required : choiceMessage(t);
};

/** A group nested deeper than one level: always rejected, on its `values`. */
const tooDeepGroupSchema = z.pipe(
  z.object({ type: groupTypeSchema }).check(
    z.superRefine((_, ctx) => {
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'Property groups can be nested only one level deep.' });
    }),
  ),
  z.transform((v) => v as never),
);

/** A group inside the top-level group: its values are filters only (one level of nesting). */
export const innerPropertyGroupSchema = z.object(
  {
    type: groupTypeSchema,
    values: list(
      z.pipe(
        z.transform(fillPropertyDefaults),
        z.discriminatedUnion('type', [propertyFilterSchema, tooDeepGroupSchema], { error: discriminatorError }),
      ),
      ANALYTICS_LIMITS.groupValues,
    ),
  },
  { error: dictType },
);

export const propertyGroupSchema = z.object(
  {
    type: groupTypeSchema,
    values: list(
      z.pipe(
        z.transform(fillPropertyDefaults),
        z.discriminatedUnion('type', [propertyFilterSchema, innerPropertyGroupSchema], { error: discriminatorError }),
      ),
      ANALYTICS_LIMITS.groupValues,
    ),
  },
  { error: dictType },
);
export type PropertyGroup = z.infer<typeof propertyGroupSchema>;
export type PropertyGroupInput = z.input<typeof propertyGroupSchema>;

/**
 * `properties`: a property group `{type: AND|OR, values}` whose values are filters or groups of
 * filters, or the legacy flat list of filters. Always parsed into a group: a list becomes
 * `{type: 'AND', values: list}` (so errors in a list's item i have the path `values, i, ...`).
 */
export const propertiesSchema = z.pipe(
  z.transform((v) => {
    if (v === null) return { type: 'AND', values: [] };
    if (Array.isArray(v)) return { type: 'AND', values: v };
    return fillPropertyDefaults(v);
  }),
  propertyGroupSchema,
);

export type Filtered = { properties?: PropertyGroup | undefined };

/** Property filters of a group, inner groups' filters included. */
function filterCount(group: PropertyGroup | undefined): number {
  let n = 0;
  for (const v of group?.values ?? []) n += 'values' in v ? v.values.length : 1;
  return n;
}

/** 400 on `properties` when the request holds more than ANALYTICS_LIMITS.filters filters in all. */
export function limitFilters(parts: readonly (Filtered | undefined)[], ctx: z.core.$RefinementCtx<never>) {
  const total = parts.reduce((n, p) => n + filterCount(p?.properties), 0);
  if (total > ANALYTICS_LIMITS.filters) {
    ctx.addIssue({
      code: 'custom',
      path: ['properties'],
      input: total,
      message: `This query has ${total} property filters; at most ${ANALYTICS_LIMITS.filters} are allowed in one query.`,
    });
  }
}
