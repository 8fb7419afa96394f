import { z } from './z';
import { endpoint, listQuerySchema, nullableTimestampSchema, pageSchema, timestampSchema } from './common';
import {
  analyticsResultSchema,
  decodeAnalyticsQuery,
  funnelParamsSchema,
  funnelQuerySchema,
  funnelResultSchema,
  pathParamsSchema,
  pathQuerySchema,
  pathResultSchema,
  retentionParamsSchema,
  retentionQuerySchema,
  retentionResultSchema,
  trendParamsSchema,
  trendQuerySchema,
  trendResultSchema,
} from './analytics';
import { blankableText, bool, choice, dict, int32, integer, list, MESSAGES, queryBool, queryInt, text } from './fields';
import { exceedsJsonDepth } from './json-depth';
import { INSIGHT_KINDS } from './insight-kinds';
import { nullableUserSchema } from './users';

export { INSIGHT_KINDS, type InsightKind } from './insight-kinds';

/** Insight `short_id`: 8 characters of [A-Za-z0-9] (docs/api.md). */
export const INSIGHT_SHORT_ID_PATTERN = /^[A-Za-z0-9]{8}$/;
export const INSIGHT_NAME_MAX = 400;
export const MY_LAST_VIEWED_MAX = 5;

/**
 * Bounds on every insight input, as the analysis parameters are bounded: far above what a
 * person builds by clicking, low enough that a stored insight stays cheap to read and list.
 * Each is a 400 naming the field (`max_length`), and shows in the OpenAPI document as
 * maxItems / maxLength where JSON Schema can say it.
 */
export const INSIGHT_LIMITS = {
  /** Tags of one insight, and characters of one tag. */
  tags: 50,
  tagLength: 255,
  /** Characters of a description. */
  descriptionLength: 4000,
  /** Dashboards listed in the deprecated `dashboards`. */
  dashboards: 100,
  /** Characters of `filters` or `query` as JSON text. */
  jsonLength: 100_000,
  /** Nesting of objects and arrays in `filters` or `query`. */
  jsonDepth: 20,
  /** Characters of a `search` or `short_id` list filter, and of a client_query_id. */
  searchLength: 400,
} as const;

/** Adds the 400 of a JSON value too big or too deep for an insight (on the field itself). */
function checkJsonBounds(value: unknown, ctx: z.core.$RefinementCtx<unknown>): void {
  if (exceedsJsonDepth(value, INSIGHT_LIMITS.jsonDepth)) {
    ctx.addIssue({
      code: 'custom',
      input: value,
      message: `Ensure this value is nested no more than ${INSIGHT_LIMITS.jsonDepth} levels deep.`,
    });
    return;
  }
  const length = JSON.stringify(value).length;
  if (length > INSIGHT_LIMITS.jsonLength) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: INSIGHT_LIMITS.jsonLength,
      inclusive: true,
      input: value,
      message: `Ensure this value has no more than ${INSIGHT_LIMITS.jsonLength} characters as JSON.`,
    });
  }
}

/** A JSON object field of an insight (`filters`), bounded in size and depth. */
const boundedDict = () => dict().check(z.superRefine(checkJsonBounds));

export const dashboardTileSchema = z.looseObject({
  id: z.int(),
  dashboard_id: z.int(),
  deleted: z.nullable(z.boolean()),
});

/**
 * An insight. Fields computed at read time (last_refresh, result, is_cached ...) are optional:
 * not every instance sends all of them.
 */
export const insightSchema = z.looseObject({
  id: z.int(),
  short_id: z.string(),
  name: z.nullable(z.string()),
  derived_name: z.nullable(z.string()),
  filters: z.record(z.string(), z.unknown()),
  query: z.unknown(),
  order: z.nullable(z.int()),
  deleted: z.boolean(),
  dashboards: z.array(z.int()),
  dashboard_tiles: z.array(dashboardTileSchema),
  last_refresh: z.optional(z.nullable(z.string())),
  cache_target_age: z.optional(z.nullable(z.string())),
  next_allowed_client_refresh: z.optional(z.nullable(z.string())),
  result: z.unknown(),
  columns: z.unknown(),
  created_at: nullableTimestampSchema,
  created_by: nullableUserSchema,
  description: z.nullable(z.string()),
  updated_at: timestampSchema,
  tags: z.array(z.string()),
  favorited: z.boolean(),
  saved: z.boolean(),
  last_modified_at: timestampSchema,
  last_modified_by: nullableUserSchema,
  is_sample: z.optional(z.boolean()),
  effective_restriction_level: z.optional(z.int()),
  effective_privilege_level: z.optional(z.int()),
  timezone: z.optional(z.nullable(z.string())),
  /** The API types it as string; the production service sends a boolean. */
  is_cached: z.unknown(),
  query_status: z.unknown(),
  hogql: z.optional(z.nullable(z.string())),
});
export type Insight = z.infer<typeof insightSchema>;

const maxItems = <T extends z.ZodMiniArray>(schema: T, max: number) =>
  schema.check(z.maxLength(max, { error: `Ensure this field has no more than ${max} elements.` }));

/** A query node: an object, or (as the API says for writes) its JSON text. Parsed to the object. */
export const insightQueryInputSchema = z
  .pipe(
    z.union(
      [
        boundedDict(),
        z.string().check(
          z.maxLength(INSIGHT_LIMITS.jsonLength, {
            error: `Ensure this field has no more than ${INSIGHT_LIMITS.jsonLength} characters.`,
          }),
          z.refine(
            (s) => {
              try {
                const v: unknown = JSON.parse(s);
                return typeof v === 'object' && v !== null && !Array.isArray(v);
              } catch {
                return false;
              }
            },
            { error: MESSAGES.json },
          ),
        ),
      ],
      { error: (iss) => (iss.input === undefined ? MESSAGES.required : MESSAGES.json) },
    ),
    z.transform((v) => (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : v)),
  )
  .check(z.superRefine(checkJsonBounds));

/** POST `{PRJ}/insights/`: every field is optional (as in the production service). */
export const insightCreateSchema = z.object({
  name: z.optional(z.nullable(blankableText(INSIGHT_NAME_MAX))),
  derived_name: z.optional(z.nullable(blankableText(INSIGHT_NAME_MAX))),
  filters: z.optional(boundedDict()),
  query: z.optional(z.nullable(insightQueryInputSchema)),
  order: z.optional(z.nullable(int32())),
  deleted: z.optional(bool()),
  /** Deprecated: use dashboard_tiles (read-only here). */
  dashboards: z.optional(maxItems(list(integer({ min: 1 })), INSIGHT_LIMITS.dashboards)),
  description: z.optional(z.nullable(blankableText(INSIGHT_LIMITS.descriptionLength))),
  tags: z.optional(maxItems(list(text(INSIGHT_LIMITS.tagLength)), INSIGHT_LIMITS.tags)),
  favorited: z.optional(bool()),
  saved: z.optional(bool()),
});
export type InsightCreate = z.infer<typeof insightCreateSchema>;
export type InsightCreateInput = z.input<typeof insightCreateSchema>;

/** PATCH `:id/`: the create fields, all optional. `{deleted: true}` soft-deletes, `{deleted: false}` restores. */
export const insightUpdateSchema = z.partial(insightCreateSchema);
export type InsightUpdate = z.infer<typeof insightUpdateSchema>;

export const INSIGHT_FORMATS = ['csv', 'json'] as const;
export const insightFormatQuerySchema = z.object({ format: z.optional(choice(INSIGHT_FORMATS)) });

/** `order` of the list: a field, `-` for descending (production service). */
export const INSIGHT_ORDERINGS = [
  'name',
  '-name',
  'created_at',
  '-created_at',
  'updated_at',
  '-updated_at',
  'last_modified_at',
  '-last_modified_at',
  'order',
  '-order',
] as const;

/** List query: the API's limit, offset, created_by, short_id, format + the production service's search, favorited, saved, order, insight (docs/api.md). */
export const insightListQuerySchema = z.extend(listQuerySchema, {
  created_by: z.optional(queryInt({ min: 1 })),
  short_id: z.optional(z.string().check(z.maxLength(INSIGHT_LIMITS.searchLength))),
  format: z.optional(choice(INSIGHT_FORMATS)),
  /** Matches name, derived name, description and tags. */
  search: z.optional(
    z.string().check(
      z.maxLength(INSIGHT_LIMITS.searchLength, {
        error: `Ensure this field has no more than ${INSIGHT_LIMITS.searchLength} characters.`,
      }),
    ),
  ),
  favorited: z.optional(queryBool()),
  saved: z.optional(queryBool()),
  order: z.optional(choice(INSIGHT_ORDERINGS)),
  /** Only insights of this kind (the production service's `insight` filter). */
  insight: z.optional(choice(INSIGHT_KINDS)),
});
export type InsightListQuery = z.infer<typeof insightListQuerySchema>;

export const insightRetrieveQuerySchema = z.extend(insightFormatQuerySchema, {
  /** Load the insight in that dashboard's context. */
  from_dashboard: z.optional(queryInt({ min: 1 })),
  /** The server decides from staleness whether to recompute; is_cached reports the outcome. */
  refresh: z.optional(queryBool()),
  /** The caller's id of this query: `cancel/` with it stops the query (production service). */
  client_query_id: z.optional(text(INSIGHT_LIMITS.searchLength)),
});
export type InsightRetrieveQuery = z.infer<typeof insightRetrieveQuerySchema>;

/**
 * `funnel/correlation/`: the funnel's parameters and what to correlate with conversion:
 * `events` (each event a person did in the date range) or `properties` (values of the person
 * properties named in `funnel_correlation_names`).
 */
export const FUNNEL_CORRELATION_TYPES = ['events', 'properties'] as const;
export const FUNNEL_CORRELATION_LIMITS = { names: 20, excluded: 100, results: 10 } as const;
const correlationShape = z
  .object({
    funnel_correlation_type: z._default(choice(FUNNEL_CORRELATION_TYPES), 'events'),
    funnel_correlation_names: z.optional(
      maxItems(list(text(INSIGHT_LIMITS.searchLength)), FUNNEL_CORRELATION_LIMITS.names),
    ),
    funnel_correlation_exclude_event_names: z.optional(
      maxItems(list(text(INSIGHT_LIMITS.searchLength)), FUNNEL_CORRELATION_LIMITS.excluded),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.funnel_correlation_type === 'properties' && !v.funnel_correlation_names?.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['funnel_correlation_names'],
          message: MESSAGES.required,
          input: v.funnel_correlation_names,
        });
      }
    }),
  );
export const funnelCorrelationParamsSchema = z.intersection(funnelParamsSchema, correlationShape);
export type FunnelCorrelationParams = z.infer<typeof funnelCorrelationParamsSchema>;
export type FunnelCorrelationParamsInput = z.input<typeof funnelCorrelationParamsSchema>;
export const funnelCorrelationQuerySchema = z.pipe(
  z.transform((q) => {
    const decoded = decodeAnalyticsQuery(q);
    if (typeof decoded !== 'object' || decoded === null) return decoded;
    const out: Record<string, unknown> = { ...decoded };
    for (const k of ['funnel_correlation_names', 'funnel_correlation_exclude_event_names']) {
      if (typeof out[k] === 'string') {
        try {
          out[k] = JSON.parse(out[k]);
        } catch {
          /* the schema names it */
        }
      }
    }
    return out;
  }),
  funnelCorrelationParamsSchema,
);

/** One correlated event or property value (production service's shape). */
export const funnelCorrelationEntrySchema = z.looseObject({
  event: z.looseObject({
    event: z.string(),
    properties: z.record(z.string(), z.unknown()),
    elements: z.array(z.unknown()),
  }),
  success_count: z.int(),
  failure_count: z.int(),
  /** ((s + 1) / (S − s + 1)) / ((f + 1) / (F − f + 1)): above 1 raises conversion, below lowers it. */
  odds_ratio: z.number(),
  correlation_type: z.enum(['success', 'failure']),
});
export type FunnelCorrelationEntry = z.infer<typeof funnelCorrelationEntrySchema>;
export const funnelCorrelationBodySchema = z.looseObject({
  events: z.array(funnelCorrelationEntrySchema),
  /** Whether successes and failures are so unbalanced (over 10 to 1) that the ratios mislead. */
  skewed: z.boolean(),
});
export type FunnelCorrelationBody = z.infer<typeof funnelCorrelationBodySchema>;
export const funnelCorrelationResultSchema = analyticsResultSchema(funnelCorrelationBodySchema);

/** POST `timing/`: how long the client waited for an insight's result (stored for the project). */
export const INSIGHT_TIMING_MAX_MS = 86_400_000;
export const insightTimingSchema = z.object({
  duration_ms: integer({ min: 0, max: INSIGHT_TIMING_MAX_MS }),
  insight_id: z.optional(z.nullable(integer({ min: 1 }))),
  client_query_id: z.optional(z.nullable(text(INSIGHT_LIMITS.searchLength))),
  is_cached: z.optional(z.nullable(bool())),
});
export type InsightTiming = z.infer<typeof insightTimingSchema>;
export const insightTimingResponseSchema = z.looseObject({
  id: z.int(),
  duration_ms: z.int(),
  insight_id: z.nullable(z.int()),
  client_query_id: z.nullable(z.string()),
  is_cached: z.nullable(z.boolean()),
  created_at: timestampSchema,
});
export type InsightTimingReport = z.infer<typeof insightTimingResponseSchema>;

/** POST `cancel/`: the `client_query_id` a running query of the caller was sent with. */
export const insightCancelSchema = z.object({ client_query_id: text(INSIGHT_LIMITS.searchLength) });
/** Whether a query was running (and was stopped); a cancel that comes first stops it when it starts. */
export const insightCancelResponseSchema = z.looseObject({ client_query_id: z.string(), cancelled: z.boolean() });

export const sharingConfigurationSchema = z.looseObject({
  created_at: nullableTimestampSchema,
  enabled: z.boolean(),
  access_token: z.nullable(z.string()),
});
export type SharingConfiguration = z.infer<typeof sharingConfigurationSchema>;

/** PATCH `:insight_id/sharing/`: turn sharing on (a token is created once) or off. */
export const sharingUpdateSchema = z.object({ enabled: z.optional(bool()) });
export type SharingUpdate = z.infer<typeof sharingUpdateSchema>;

/**
 * An activity log entry (production service's shape; the API shows none; docs/api.md). The activity
 * endpoints return them in `{results, next, previous}` with `count` (this API's Page) or
 * `total_count` (production): both accepted.
 */
export const activityLogEntrySchema = z.looseObject({
  user: z.nullable(
    z.looseObject({ first_name: z.optional(z.nullable(z.string())), email: z.optional(z.nullable(z.string())) }),
  ),
  activity: z.string(),
  scope: z.string(),
  item_id: z.nullable(z.string()),
  detail: z.nullable(
    z.looseObject({
      name: z.optional(z.nullable(z.string())),
      short_id: z.optional(z.nullable(z.string())),
      changes: z.optional(
        z.nullable(
          z.array(
            z.looseObject({
              type: z.optional(z.string()),
              action: z.string(),
              field: z.optional(z.nullable(z.string())),
              before: z.unknown(),
              after: z.unknown(),
            }),
          ),
        ),
      ),
    }),
  ),
  created_at: timestampSchema,
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;
export const activityLogPageSchema = z.looseObject({
  results: z.array(activityLogEntrySchema),
  next: z.nullable(z.string()),
  previous: z.nullable(z.string()),
  count: z.optional(z.int()),
  total_count: z.optional(z.int()),
});
export type ActivityLogPage = z.infer<typeof activityLogPageSchema>;

/** `my_last_viewed/`: basic details of at most 5 insights, most recent first. */
export const insightBasicSchema = z.looseObject({
  id: z.int(),
  short_id: z.string(),
  name: z.nullable(z.string()),
  derived_name: z.nullable(z.string()),
  favorited: z.optional(z.boolean()),
  saved: z.optional(z.boolean()),
  last_viewed_at: z.optional(z.nullable(z.string())),
});
export type InsightBasic = z.infer<typeof insightBasicSchema>;
export const myLastViewedResponseSchema = z.array(insightBasicSchema);

const intParam = z.coerce.number({ error: MESSAGES.integer }).check(z.int({ error: MESSAGES.integer }), z.positive());
export const projectParams = z.object({ project_id: z.string() });
export const insightParams = z.object({ project_id: z.string(), id: intParam });
export const insightSharingParams = z.object({ project_id: z.string(), insight_id: intParam });
export const sharedParams = z.object({ access_token: z.string().check(z.regex(/^[A-Za-z0-9_-]{32}$/)) });

const base = '/api/projects/:project_id/insights/';
const p = projectParams;
const fmt = insightFormatQuerySchema;

/**
 * Static paths come before `:id/`. The API's † endpoints take the scopes docs/api.md gives them
 * (insight:read; activity_log:read for activity; sharing_configuration:write for the sharing
 * writes); `viewed/` takes an insight body and answers the Insight, the others their own shapes. The
 * analysis endpoints take their parameters as a body (POST) or in the query string (GET).
 */
export const insightEndpoints = {
  list: endpoint({
    method: 'GET',
    path: base,
    access: 'insight:read',
    summary: 'List insights',
    params: p,
    query: insightListQuerySchema,
    status: 200,
    response: pageSchema(insightSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: base,
    access: 'insight:write',
    summary: 'Create an insight',
    params: p,
    query: fmt,
    body: insightCreateSchema,
    status: 201,
    response: insightSchema,
  }),
  activity: endpoint({
    method: 'GET',
    path: `${base}activity/`,
    access: 'activity_log:read',
    summary: 'Activity on all insights of the project',
    params: p,
    query: listQuerySchema,
    status: 200,
    response: activityLogPageSchema,
  }),
  cancel: endpoint({
    method: 'POST',
    path: `${base}cancel/`,
    access: 'insight:read',
    summary: 'Cancel a running insight query',
    params: p,
    body: insightCancelSchema,
    status: 200,
    response: insightCancelResponseSchema,
  }),
  funnelGet: endpoint({
    method: 'GET',
    path: `${base}funnel/`,
    access: 'insight:read',
    summary: 'Compute a funnel (parameters in the query string)',
    params: p,
    query: funnelQuerySchema,
    status: 200,
    response: funnelResultSchema,
  }),
  funnel: endpoint({
    method: 'POST',
    path: `${base}funnel/`,
    access: 'insight:read',
    summary: 'Compute a funnel',
    params: p,
    body: funnelParamsSchema,
    status: 200,
    response: funnelResultSchema,
  }),
  funnelCorrelationGet: endpoint({
    method: 'GET',
    path: `${base}funnel/correlation/`,
    access: 'insight:read',
    summary: 'Funnel correlation (parameters in the query string)',
    params: p,
    query: funnelCorrelationQuerySchema,
    status: 200,
    response: funnelCorrelationResultSchema,
  }),
  funnelCorrelation: endpoint({
    method: 'POST',
    path: `${base}funnel/correlation/`,
    access: 'insight:read',
    summary: "Events and person properties that raise or lower a funnel's conversion",
    params: p,
    body: funnelCorrelationParamsSchema,
    status: 200,
    response: funnelCorrelationResultSchema,
  }),
  myLastViewed: endpoint({
    method: 'GET',
    path: `${base}my_last_viewed/`,
    access: 'insight:read',
    summary: 'The last 5 insights the caller viewed',
    params: p,
    status: 200,
    response: myLastViewedResponseSchema,
  }),
  pathGet: endpoint({
    method: 'GET',
    path: `${base}path/`,
    access: 'insight:read',
    summary: 'Compute paths (parameters in the query string)',
    params: p,
    query: pathQuerySchema,
    status: 200,
    response: pathResultSchema,
  }),
  path: endpoint({
    method: 'POST',
    path: `${base}path/`,
    access: 'insight:read',
    summary: 'Compute paths',
    params: p,
    body: pathParamsSchema,
    status: 200,
    response: pathResultSchema,
  }),
  retentionGet: endpoint({
    method: 'GET',
    path: `${base}retention/`,
    access: 'insight:read',
    summary: 'Compute retention (parameters in the query string)',
    params: p,
    query: retentionQuerySchema,
    status: 200,
    response: retentionResultSchema,
  }),
  retention: endpoint({
    method: 'POST',
    path: `${base}retention/`,
    access: 'insight:read',
    summary: 'Compute retention',
    params: p,
    body: retentionParamsSchema,
    status: 200,
    response: retentionResultSchema,
  }),
  timing: endpoint({
    method: 'POST',
    path: `${base}timing/`,
    access: 'insight:read',
    summary: 'Report client-side timing of an insight',
    params: p,
    body: insightTimingSchema,
    status: 200,
    response: insightTimingResponseSchema,
  }),
  trendGet: endpoint({
    method: 'GET',
    path: `${base}trend/`,
    access: 'insight:read',
    summary: 'Compute trends (parameters in the query string)',
    params: p,
    query: trendQuerySchema,
    status: 200,
    response: trendResultSchema,
  }),
  trend: endpoint({
    method: 'POST',
    path: `${base}trend/`,
    access: 'insight:read',
    summary: 'Compute trends',
    params: p,
    body: trendParamsSchema,
    status: 200,
    response: trendResultSchema,
  }),
  sharing: endpoint({
    method: 'GET',
    path: `${base}:insight_id/sharing/`,
    access: 'sharing_configuration:read',
    summary: 'Sharing configuration of an insight',
    params: insightSharingParams,
    status: 200,
    response: sharingConfigurationSchema,
  }),
  sharingUpdate: endpoint({
    method: 'PATCH',
    path: `${base}:insight_id/sharing/`,
    access: 'sharing_configuration:write',
    summary: 'Enable or disable sharing of an insight',
    params: insightSharingParams,
    body: sharingUpdateSchema,
    status: 200,
    response: sharingConfigurationSchema,
  }),
  sharingRefresh: endpoint({
    method: 'POST',
    path: `${base}:insight_id/sharing/refresh/`,
    access: 'sharing_configuration:write',
    summary: 'Replace the access token of a shared insight',
    params: insightSharingParams,
    status: 200,
    response: sharingConfigurationSchema,
  }),
  retrieve: endpoint({
    method: 'GET',
    path: `${base}:id/`,
    access: 'insight:read',
    summary: 'Retrieve an insight',
    params: insightParams,
    query: insightRetrieveQuerySchema,
    status: 200,
    response: insightSchema,
  }),
  update: endpoint({
    method: 'PATCH',
    path: `${base}:id/`,
    access: 'insight:write',
    summary: 'Update an insight; deleted: true soft-deletes',
    params: insightParams,
    query: fmt,
    body: insightUpdateSchema,
    status: 200,
    response: insightSchema,
  }),
  destroy: endpoint({
    method: 'DELETE',
    path: `${base}:id/`,
    access: 'insight:write',
    summary: 'Not allowed: PATCH deleted: true instead',
    params: insightParams,
    status: 405,
  }),
  itemActivity: endpoint({
    method: 'GET',
    path: `${base}:id/activity/`,
    access: 'activity_log:read',
    summary: 'Activity on one insight',
    params: insightParams,
    query: listQuerySchema,
    status: 200,
    response: activityLogPageSchema,
  }),
  viewed: endpoint({
    method: 'POST',
    path: `${base}:id/viewed/`,
    access: 'insight:read',
    summary: 'Record that the caller viewed an insight',
    params: insightParams,
    body: insightUpdateSchema,
    status: 200,
    response: insightSchema,
  }),
};

/**
 * Public, outside `/api` (no key): a shared insight with its result while its sharing is
 * enabled; 404 once disabled or its token rotated. Not in the key-authenticated registry.
 */
export const sharedInsightEndpoint = endpoint({
  method: 'GET',
  path: '/shared/:access_token/insight/',
  access: 'authenticated',
  summary: 'A shared insight (public, by its access token)',
  params: sharedParams,
  status: 200,
  response: insightSchema,
});
