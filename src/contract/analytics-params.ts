import { z } from './z';
import {
  dictType,
  groupTypeIndexSchema,
  isRecord,
  limitFilters,
  PROPERTY_KEY_MAX,
  propertiesSchema,
  type Filtered,
} from './analytics-filters';
import { ANALYTICS_LIMITS, HOGQL_LIMITS } from './analytics-limits';
import { blankableText, bool, choice, choiceMessage, integer, list, MESSAGES, text, typeError } from './fields';

export * from './analytics-filters';
export * from './analytics-limits';

/**
 * Request parameters of the analysis endpoints: trend/, funnel/, retention/, path/.
 * The same schemas validate a JSON body (POST) and, through `decodeAnalyticsQuery`, a query
 * string (GET). Issue paths name the parameter and the place inside it
 * (`['events', 0, 'math']`), which the server joins with `__` into the error's `attr`.
 */

export const MATHS = [
  'total',
  'dau',
  'weekly_active',
  'monthly_active',
  'unique_session',
  'sum',
  'avg',
  'min',
  'max',
  'median',
  'p90',
  'p95',
  'p99',
  'hogql',
] as const;
export type MathType = (typeof MATHS)[number];
/** Maths computed over a numeric property: they need `math_property`. */
export const PROPERTY_MATHS = [
  'sum',
  'avg',
  'min',
  'max',
  'median',
  'p90',
  'p95',
  'p99',
] as const satisfies readonly MathType[];
export type PropertyMath = (typeof PROPERTY_MATHS)[number];
export const isPropertyMath = (math: unknown): math is PropertyMath =>
  (PROPERTY_MATHS as readonly unknown[]).includes(math);

export const ENTITY_TYPES = ['events', 'actions'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];
export const BREAKDOWN_TYPES = ['event', 'person', 'cohort', 'group', 'session', 'hogql'] as const;
export const DISPLAY_TYPES = [
  'ActionsLineGraph',
  'ActionsLineGraphCumulative',
  'ActionsAreaGraph',
  'ActionsTable',
  'ActionsPie',
  'ActionsBar',
  'ActionsBarValue',
  'WorldMap',
  'BoldNumber',
] as const;
export type DisplayType = (typeof DISPLAY_TYPES)[number];
/** Displays that return one aggregated value per series instead of a time series. */
export const AGGREGATED_DISPLAYS: readonly DisplayType[] = [
  'ActionsPie',
  'ActionsBarValue',
  'ActionsTable',
  'WorldMap',
  'BoldNumber',
];

export const FUNNEL_WINDOW_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month'] as const;
export type FunnelWindowUnit = (typeof FUNNEL_WINDOW_UNITS)[number];
export const FUNNEL_VIZ_TYPES = ['steps', 'trends', 'time_to_convert'] as const;
export const FUNNEL_ORDER_TYPES = ['ordered', 'strict', 'unordered'] as const;

export const RETENTION_TYPES = ['retention_first_time', 'retention_recurring'] as const;
export const RETENTION_PERIODS = ['Hour', 'Day', 'Week', 'Month'] as const;
export const PATH_EVENT_TYPES = ['$pageview', '$screen', 'custom_event', 'hogql'] as const;

/** Optional with a default; null counts as "not given" (production clients send nulls). */
const withDefault = <T extends z.ZodMiniType>(s: T, value: z.output<T>) =>
  z.pipe(
    z._default(z.nullable(s), value as never),
    z.transform((v): z.output<T> => (v ?? value) as z.output<T>),
  );

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

/**
 * `all`, relative `-7d`, `-1mStart`, `mStart`, `yStart`, a date (zero padding optional:
 * `2020-6-1`) or an ISO datetime (docs/api.md).
 */
export const RELATIVE_DATE_PATTERN = /^-?\d*[hdwmqy](Start|End)?$/;
export const ABSOLUTE_DATE_PATTERN = /^\d{4}-\d{1,2}-\d{1,2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** Whether the `YYYY-M-D` date that starts an absolute value exists on the calendar. */
function calendarDateExists(v: string): boolean {
  const [y, m, d] = v.split(/[T ]/)[0]!.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return m >= 1 && m <= 12 && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
export const dateParamSchema = z.string({ error: typeError(MESSAGES.string) }).check(
  z.refine(
    (v) => v === 'all' || RELATIVE_DATE_PATTERN.test(v) || (ABSOLUTE_DATE_PATTERN.test(v) && calendarDateExists(v)),
    {
      error: 'Enter a date (YYYY-MM-DD), an ISO 8601 datetime, "all", or a relative date such as -7d or mStart.',
    },
  ),
);

// ---------------------------------------------------------------------------------------------
// Series entries and exclusions
// ---------------------------------------------------------------------------------------------

const entityIdSchema = z.union([text(PROPERTY_KEY_MAX), z.int()], {
  error: (iss) => (iss.input === undefined ? MESSAGES.required : 'Enter an event name or an action ID.'),
});

export const entitySchema = z
  .object({
    /** Event name (null = all events) or action id. */
    id: z.nullable(entityIdSchema),
    type: choice(ENTITY_TYPES),
    order: z.optional(integer({ min: 0 })),
    name: z.optional(z.nullable(blankableText(PROPERTY_KEY_MAX))),
    custom_name: z.optional(z.nullable(blankableText(PROPERTY_KEY_MAX))),
    math: withDefault(choice(MATHS), 'total'),
    math_property: z.optional(z.nullable(blankableText(PROPERTY_KEY_MAX))),
    /** `math: hogql`: an aggregate HogQL expression such as `sum(properties.price) / count()` (docs/hogql.md). */
    math_hogql: z.optional(z.nullable(blankableText(HOGQL_LIMITS.length))),
    properties: z.optional(propertiesSchema),
  })
  .check(
    z.superRefine((e, ctx) => {
      if (e.math === 'hogql' && !e.math_hogql) {
        ctx.addIssue({ code: 'custom', path: ['math_hogql'], message: MESSAGES.required, input: e.math_hogql });
      }
      if (e.type === 'actions' && !(typeof e.id === 'number' || (typeof e.id === 'string' && /^\d+$/.test(e.id)))) {
        ctx.addIssue({ code: 'custom', path: ['id'], message: MESSAGES.integer, input: e.id });
      }
      if (isPropertyMath(e.math) && !e.math_property) {
        ctx.addIssue({ code: 'custom', path: ['math_property'], message: MESSAGES.required, input: e.math_property });
      }
    }),
  );
export type Entity = z.infer<typeof entitySchema>;
export type EntityInput = z.input<typeof entitySchema>;

/** An entry of `events` / `actions`: `type` defaults to the list it is in. */
const entityIn = (type: EntityType) =>
  z.pipe(
    z.transform((v) => (isRecord(v) && (v.type === undefined || v.type === null) ? { ...v, type } : v)),
    entitySchema,
  );
export const eventsSchema = list(entityIn('events'), ANALYTICS_LIMITS.series);
export const actionsSchema = list(entityIn('actions'), ANALYTICS_LIMITS.series);

/** Funnel exclusion: 0-based step indexes, from < to (docs/api.md). */
export const exclusionSchema = z.object({
  id: z.nullable(entityIdSchema),
  type: withDefault(choice(ENTITY_TYPES), 'events'),
  name: z.optional(z.nullable(blankableText(PROPERTY_KEY_MAX))),
  funnel_from_step: integer({ min: 0 }),
  funnel_to_step: integer({ min: 0 }),
});
export type Exclusion = z.infer<typeof exclusionSchema>;

/** Minimal entity reference of retention (target / returning). Default `$pageview`. */
export const retentionEntitySchema = z.object(
  {
    id: z.nullable(entityIdSchema),
    type: withDefault(choice(ENTITY_TYPES), 'events'),
    name: z.optional(z.nullable(blankableText(PROPERTY_KEY_MAX))),
    custom_name: z.optional(z.nullable(blankableText(PROPERTY_KEY_MAX))),
    properties: z.optional(propertiesSchema),
  },
  { error: dictType },
);
export type RetentionEntity = z.infer<typeof retentionEntitySchema>;

/** Path cleaning rule: matches of `regex` in a path item are replaced by `alias`. */
export const pathCleaningRuleSchema = z.object({
  alias: text(400),
  regex: text(1000).check(
    z.refine(
      (r) => {
        try {
          new RegExp(r);
          return true;
        } catch {
          return false;
        }
      },
      {
        error: 'Enter a valid regular expression.',
      },
    ),
  ),
});
export type PathCleaningRule = z.infer<typeof pathCleaningRuleSchema>;

// ---------------------------------------------------------------------------------------------
// Parameter objects
// ---------------------------------------------------------------------------------------------

/** A breakdown: property key (or HogQL expression), cohort id(s), or a list of them. */
export const breakdownSchema = z.union(
  [
    text(HOGQL_LIMITS.length),
    z.int(),
    z.array(z.union([text(PROPERTY_KEY_MAX), z.int()])).check(z.maxLength(ANALYTICS_LIMITS.breakdowns)),
  ],
  { error: 'Enter a property name, a cohort ID or a list of cohort IDs.' },
);

/** Bins of a numeric breakdown: equal-width ranges over the values seen (docs/api.md, "Breakdowns"). */
const histogramBinCount = () => z.optional(z.nullable(integer({ min: 1, max: ANALYTICS_LIMITS.histogramBins })));

/**
 * One entry of `breakdowns` (the production service's `BreakdownFilter.breakdowns`): a property
 * (or HogQL expression) of any single-breakdown type but cohort, optionally binned.
 */
export const breakdownEntrySchema = z.object({
  property: text(HOGQL_LIMITS.length),
  type: withDefault(choice(BREAKDOWN_TYPES), 'event'),
  group_type_index: z.optional(z.nullable(groupTypeIndexSchema)),
  histogram_bin_count: histogramBinCount(),
});
export type BreakdownEntry = z.infer<typeof breakdownEntrySchema>;
export type BreakdownEntryInput = z.input<typeof breakdownEntrySchema>;

/** Series, filters and dates shared by trends and funnels. */
const seriesShape = {
  events: z.optional(eventsSchema),
  actions: z.optional(actionsSchema),
  properties: z.optional(propertiesSchema),
  filter_test_accounts: z.optional(bool()),
  date_from: z.optional(z.nullable(dateParamSchema)),
  date_to: z.optional(z.nullable(dateParamSchema)),
  interval: withDefault(choice(INTERVALS), 'day'),
  breakdown: z.optional(z.nullable(breakdownSchema)),
  breakdown_type: withDefault(choice(BREAKDOWN_TYPES), 'event'),
  /** The group type whose property `breakdown` names, with `breakdown_type: group`. */
  breakdown_group_type_index: z.optional(z.nullable(groupTypeIndexSchema)),
  /** Split a numeric `breakdown` into this many equal-width bins. */
  breakdown_histogram_bin_count: histogramBinCount(),
  /** Several breakdowns at once (instead of `breakdown`): each series splits by their combinations. */
  breakdowns: z.optional(z.nullable(list(breakdownEntrySchema, ANALYTICS_LIMITS.multipleBreakdowns))),
  /** Absent or null: persons; n: the keys of group type n (docs/api.md, "Groups"). */
  aggregation_group_type_index: z.optional(z.nullable(groupTypeIndexSchema)),
};

type Series = {
  events?: Entity[];
  actions?: Entity[];
  breakdown?: unknown;
  breakdown_type?: string;
  breakdowns?: BreakdownEntry[] | null;
  breakdown_histogram_bin_count?: number | null;
};

/** The series in order: `order` when given, else events then actions as listed. */
export function orderedEntities(params: Series): Entity[] {
  const all = [...(params.events ?? []), ...(params.actions ?? [])];
  return all
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.order ?? a.i) - (b.e.order ?? b.i) || a.i - b.i)
    .map(({ e }) => e);
}

/** At least one series, and at most `max` of them (events and actions together). */
function requireSeries(v: Series & Filtered, ctx: z.core.$RefinementCtx<Series>, max: number, noun: string) {
  const count = (v.events?.length ?? 0) + (v.actions?.length ?? 0);
  if (count === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['events'],
      message: 'At least one event or action is required.',
      input: v.events,
    });
  } else if (count > max) {
    ctx.addIssue({
      code: 'custom',
      path: [v.events?.length ? 'events' : 'actions'],
      input: count,
      message: `A query can have at most ${max} ${noun} (events and actions together); this one has ${count}.`,
    });
  }
  // A HogQL breakdown may be as long as an expression; a property name is at most PROPERTY_KEY_MAX.
  if (typeof v.breakdown === 'string' && v.breakdown_type !== 'hogql' && v.breakdown.length > PROPERTY_KEY_MAX) {
    ctx.addIssue({
      code: 'custom',
      path: ['breakdown'],
      input: v.breakdown,
      message: `Ensure this field has no more than ${PROPERTY_KEY_MAX} characters.`,
    });
  }
  checkBreakdowns(v, ctx);
  limitFilters([v, ...(v.events ?? []), ...(v.actions ?? [])], ctx as z.core.$RefinementCtx<never>);
}

/** What the entries of `breakdowns` cannot say by their own schema (docs/api.md, "Breakdowns"). */
function checkBreakdowns(v: Series, ctx: z.core.$RefinementCtx<Series>) {
  const hasBreakdown = v.breakdown !== undefined && v.breakdown !== null;
  if (v.breakdowns && v.breakdowns.length > 0 && hasBreakdown) {
    ctx.addIssue({
      code: 'custom',
      path: ['breakdowns'],
      input: v.breakdowns,
      message: 'Give either breakdown or breakdowns, not both.',
    });
  }
  if (hasBreakdown && v.breakdown_type === 'cohort' && v.breakdown_histogram_bin_count != null) {
    ctx.addIssue({
      code: 'custom',
      path: ['breakdown_histogram_bin_count'],
      input: v.breakdown_histogram_bin_count,
      message: 'A cohort breakdown cannot be split into bins.',
    });
  }
  v.breakdowns?.forEach((b, i) => {
    // A cohort splits the persons, not the events' values: it does not combine with others.
    if (b.type === 'cohort') {
      ctx.addIssue({
        code: 'custom',
        path: ['breakdowns', i, 'type'],
        input: b.type,
        message: 'A cohort breakdown cannot be combined with others: use breakdown with breakdown_type cohort.',
      });
    } else if (b.type !== 'hogql' && b.property.length > PROPERTY_KEY_MAX) {
      ctx.addIssue({
        code: 'custom',
        path: ['breakdowns', i, 'property'],
        input: b.property,
        message: `Ensure this field has no more than ${PROPERTY_KEY_MAX} characters.`,
      });
    }
  });
}

export const FORMULA_PATTERN = /^[A-Za-z0-9+\-*/%().\s]*$/;

export const trendParamsSchema = z
  .object({
    ...seriesShape,
    breakdown_limit: z._default(integer({ min: 1, max: ANALYTICS_LIMITS.breakdownLimit }), 25),
    compare: z.optional(bool()),
    compare_to: z.optional(z.nullable(blankableText(100))),
    display: withDefault(choice(DISPLAY_TYPES), 'ActionsLineGraph'),
    formula: z.optional(z.nullable(blankableText(1000))),
    /** Several formulas on one chart, each a series of its own; when given, `formula` is not used. */
    formulas: z.optional(list(blankableText(1000), ANALYTICS_LIMITS.formulas)),
  })
  .check(
    z.superRefine((v, ctx) => {
      requireSeries(v, ctx, ANALYTICS_LIMITS.series, 'series');
      const count = (v.events?.length ?? 0) + (v.actions?.length ?? 0);
      formulasWithPath(v).forEach(({ text, path }) => {
        const letters = text.match(/[A-Za-z]+/g) ?? [];
        const bad = letters.find((l) => l.length !== 1 || l.toUpperCase().charCodeAt(0) - 65 >= count);
        if (!FORMULA_PATTERN.test(text) || bad !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path,
            input: text,
            message:
              bad !== undefined
                ? `"${bad}" is not a series of this insight: use letters A to ${String.fromCharCode(64 + Math.max(count, 1))}.`
                : 'A formula may only contain series letters, numbers, + - * / %, and parentheses.',
          });
        }
      });
    }),
  );

/**
 * A trend's formulas with the field each came from: `formulas` when it has any, else the one
 * `formula` (docs/api.md, "Trends"). Blank entries are left out.
 */
export function formulasWithPath(v: {
  formula?: string | null | undefined;
  formulas?: readonly (string | null | undefined)[] | null | undefined;
}): { text: string; path: (string | number)[] }[] {
  const listed = (v.formulas ?? [])
    .map((text, i) => ({ text: text ?? '', path: ['formulas', i] }))
    .filter((f) => f.text.trim() !== '');
  if (listed.length > 0) return listed;
  return v.formula ? [{ text: v.formula, path: ['formula'] }] : [];
}
export type TrendParams = z.infer<typeof trendParamsSchema>;
export type TrendParamsInput = z.input<typeof trendParamsSchema>;

/** DAY, Day, day, days ... → 'day'. */
export const funnelWindowUnitSchema = z.pipe(
  z.string({ error: typeError(MESSAGES.string) }).check(
    z.refine((v) => (FUNNEL_WINDOW_UNITS as readonly string[]).includes(v.toLowerCase().replace(/s$/, '')), {
      error: (iss) => choiceMessage(iss.input),
    }),
  ),
  z.transform((v) => v.toLowerCase().replace(/s$/, '') as FunnelWindowUnit),
);

export const funnelParamsSchema = z
  .object({
    ...seriesShape,
    breakdown_limit: z._default(integer({ min: 1, max: ANALYTICS_LIMITS.breakdownLimit }), 10),
    funnel_window_interval: z.optional(z.nullable(integer({ min: 1 }))),
    funnel_window_interval_type: z.optional(z.nullable(funnelWindowUnitSchema)),
    /** The production service's name of funnel_window_interval_type. */
    funnel_window_interval_unit: z.optional(z.nullable(funnelWindowUnitSchema)),
    /** Deprecated: use funnel_window_interval (+ _type). */
    funnel_window_days: z.optional(z.nullable(integer({ min: 1 }))),
    funnel_viz_type: withDefault(choice(FUNNEL_VIZ_TYPES), 'steps'),
    funnel_order_type: withDefault(choice(FUNNEL_ORDER_TYPES), 'ordered'),
    exclusions: z.optional(list(exclusionSchema, ANALYTICS_LIMITS.exclusions)),
    /** time_to_convert: the steps the time runs between (0-based; missing: the first and the last). */
    funnel_from_step: z.optional(z.nullable(integer({ min: 0 }))),
    funnel_to_step: z.optional(z.nullable(integer({ min: 0 }))),
  })
  .check(
    z.superRefine((v, ctx) => {
      requireSeries(v, ctx, ANALYTICS_LIMITS.funnelSteps, 'steps');
      limitWindow(v, ctx as z.core.$RefinementCtx<never>);
      const steps = orderedEntities(v);
      const last = steps.length - 1;
      const [from, to] = [v.funnel_from_step ?? 0, v.funnel_to_step ?? last];
      const chosen = (v.funnel_from_step ?? null) !== null || (v.funnel_to_step ?? null) !== null;
      if (chosen && steps.length > 0 && (from >= to || to > last)) {
        const [field, input] =
          to > last ? ['funnel_to_step', v.funnel_to_step] : ['funnel_from_step', v.funnel_from_step];
        ctx.addIssue({
          code: 'custom',
          path: [field],
          input,
          message:
            to > last
              ? `The funnel has ${steps.length} steps: funnel_to_step is at most ${last}.`
              : 'funnel_from_step must come before funnel_to_step.',
        });
      }
      (v.exclusions ?? []).forEach((x, i) => {
        const issue = (field: string, message: string) =>
          ctx.addIssue({ code: 'custom', path: ['exclusions', i, field], message, input: x });
        if (x.funnel_from_step >= x.funnel_to_step) {
          issue('funnel_to_step', 'Exclusion event range is invalid. End of range should be greater than start.');
        } else if (x.funnel_to_step > last) {
          issue('funnel_to_step', 'Exclusion event range is invalid. End of range is greater than number of steps.');
        } else if (v.funnel_order_type === 'unordered' && (x.funnel_from_step !== 0 || x.funnel_to_step !== last)) {
          issue('funnel_from_step', 'Partial Exclusions not allowed in unordered funnels.');
        } else if (
          steps
            .slice(x.funnel_from_step, x.funnel_to_step + 1)
            .some((s) => s.type === x.type && String(s.id) === String(x.id))
        ) {
          issue('id', "Exclusion steps cannot contain an event that's part of funnel steps.");
        }
      });
    }),
  );
export type FunnelParams = z.infer<typeof funnelParamsSchema>;
export type FunnelParamsInput = z.input<typeof funnelParamsSchema>;

export const FUNNEL_WINDOW_DEFAULT = { interval: 14, unit: 'day' } as const;

/** Days in one window unit, for the window's bound (a month counts as 30.5 days: 12 months fit). */
const UNIT_DAYS: Record<FunnelWindowUnit, number> = {
  second: 1 / 86_400,
  minute: 1 / 1440,
  hour: 1 / 24,
  day: 1,
  week: 7,
  month: 30.5,
};

/** The conversion window is at most ANALYTICS_LIMITS.funnelWindowDays, in any unit: 400 on the field that sets it. */
function limitWindow(v: Parameters<typeof funnelWindow>[0], ctx: z.core.$RefinementCtx<never>) {
  const window = funnelWindow(v);
  if (window.interval * UNIT_DAYS[window.unit] <= ANALYTICS_LIMITS.funnelWindowDays) return;
  ctx.addIssue({
    code: 'custom',
    path: [v.funnel_window_interval ? 'funnel_window_interval' : 'funnel_window_days'],
    input: window.interval,
    message: `The conversion window can be at most ${ANALYTICS_LIMITS.funnelWindowDays} days (12 months, 52 weeks).`,
  });
}

/** The conversion window: interval + unit (either name), else funnel_window_days, else 14 days. */
export function funnelWindow(
  p: Pick<
    FunnelParams,
    'funnel_window_interval' | 'funnel_window_interval_type' | 'funnel_window_interval_unit' | 'funnel_window_days'
  >,
): { interval: number; unit: FunnelWindowUnit } {
  const unit = p.funnel_window_interval_type ?? p.funnel_window_interval_unit ?? null;
  if (p.funnel_window_interval) return { interval: p.funnel_window_interval, unit: unit ?? 'day' };
  if (p.funnel_window_days) return { interval: p.funnel_window_days, unit: 'day' };
  return { ...FUNNEL_WINDOW_DEFAULT };
}

const capitalize = (v: string) => (v ? v[0]!.toUpperCase() + v.slice(1).toLowerCase() : v);

/** A retention entity left out of a request: pageviews. */
export const RETENTION_DEFAULT_ENTITY = { id: '$pageview', type: 'events' } as const;
const pageview = RETENTION_DEFAULT_ENTITY;

export const retentionParamsSchema = z
  .object({
    target_entity: z._default(retentionEntitySchema, { ...pageview }),
    returning_entity: z._default(retentionEntitySchema, { ...pageview }),
    /** Also accepts the short forms `first_time` / `recurring`. */
    retention_type: z.pipe(
      withDefault(choice([...RETENTION_TYPES, 'first_time', 'recurring']), 'retention_first_time'),
      z.transform((v) => (v.startsWith('retention_') ? v : `retention_${v}`) as (typeof RETENTION_TYPES)[number]),
    ),
    /** Any letter case: `day` → `Day`. */
    period: z.pipe(
      withDefault(
        z.string({ error: typeError(MESSAGES.string) }).check(
          z.refine((v) => (RETENTION_PERIODS as readonly string[]).includes(capitalize(v)), {
            error: (iss) => choiceMessage(iss.input),
          }),
        ),
        'Day',
      ),
      z.transform((v) => capitalize(v) as (typeof RETENTION_PERIODS)[number]),
    ),
    total_intervals: z._default(integer({ min: 1, max: 100 }), 7),
    date_from: z.optional(z.nullable(dateParamSchema)),
    date_to: z.optional(z.nullable(dateParamSchema)),
    properties: z.optional(propertiesSchema),
    filter_test_accounts: z.optional(bool()),
    aggregation_group_type_index: z.optional(z.nullable(groupTypeIndexSchema)),
    /** A property (or HogQL) breakdown of the cohorts, by the value at the event that put each person in one. */
    breakdown: z.optional(z.nullable(breakdownSchema)),
    breakdown_type: withDefault(choice(BREAKDOWN_TYPES), 'event'),
    breakdown_group_type_index: z.optional(z.nullable(groupTypeIndexSchema)),
    breakdown_histogram_bin_count: seriesShape.breakdown_histogram_bin_count,
    breakdowns: seriesShape.breakdowns,
    breakdown_limit: z._default(integer({ min: 1, max: ANALYTICS_LIMITS.breakdownLimit }), 10),
  })
  .check(
    z.superRefine((v, ctx) => {
      checkBreakdowns(v, ctx as z.core.$RefinementCtx<never>);
      limitFilters([v, v.target_entity, v.returning_entity], ctx as z.core.$RefinementCtx<never>);
    }),
  );
export type RetentionParams = z.infer<typeof retentionParamsSchema>;
export type RetentionParamsInput = z.input<typeof retentionParamsSchema>;

export const pathParamsSchema = z
  .object({
    /** Which events make path items; missing or empty = all of them. */
    include_event_types: z.optional(list(choice(PATH_EVENT_TYPES), PATH_EVENT_TYPES.length)),
    /** With `hogql` among the types: each event's path item, a HogQL value (docs/hogql.md). */
    paths_hogql_expression: z.optional(z.nullable(blankableText(HOGQL_LIMITS.length))),
    start_point: z.optional(z.nullable(blankableText(2000))),
    end_point: z.optional(z.nullable(blankableText(2000))),
    step_limit: z._default(integer({ min: 1, max: 20 }), 5),
    /** Most edges returned, the heaviest first. */
    edge_limit: z.optional(integer({ min: 1, max: 1000 })),
    exclude_events: z.optional(list(text(PROPERTY_KEY_MAX), ANALYTICS_LIMITS.excludedEvents)),
    /** Apply the project's path cleaning rules (production). */
    path_replacements: z.optional(bool()),
    /** Path cleaning rules of this query, applied in order. */
    local_path_cleaning_filters: z.optional(list(pathCleaningRuleSchema, ANALYTICS_LIMITS.pathCleaningRules)),
    date_from: z.optional(z.nullable(dateParamSchema)),
    date_to: z.optional(z.nullable(dateParamSchema)),
    properties: z.optional(propertiesSchema),
    filter_test_accounts: z.optional(bool()),
  })
  .check(
    z.superRefine((v, ctx) => {
      limitFilters([v], ctx as z.core.$RefinementCtx<never>);
      if (v.include_event_types?.includes('hogql') && !v.paths_hogql_expression) {
        ctx.addIssue({
          code: 'custom',
          path: ['paths_hogql_expression'],
          message: 'Enter a HogQL expression: the path item of each event.',
          input: v.paths_hogql_expression,
        });
      }
    }),
  );
export type PathParams = z.infer<typeof pathParamsSchema>;
export type PathParamsInput = z.input<typeof pathParamsSchema>;
