import { z } from './z';

/**
 * Results of the analysis endpoints (trend/, funnel/, retention/, path/), as the production
 * service returns them (docs/api.md). Response schemas: extra fields are kept.
 */

/** `{is_cached, last_refresh, timezone, result}` around every analysis result. */
export function analyticsResultSchema<T extends z.ZodMiniType>(result: T) {
  return z.looseObject({
    is_cached: z.boolean(),
    last_refresh: z.nullable(z.string()),
    timezone: z.string(),
    result,
  });
}

const breakdownValueSchema = z.nullable(z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]));

/** The `filter` echoed in each trend series. */
export const trendResultFilterSchema = z.looseObject({
  events: z.optional(z.array(z.record(z.string(), z.unknown()))),
  actions: z.optional(z.array(z.record(z.string(), z.unknown()))),
  properties: z.optional(z.unknown()),
  filter_test_accounts: z.optional(z.boolean()),
  date_from: z.optional(z.nullable(z.string())),
  date_to: z.optional(z.nullable(z.string())),
});

/**
 * One trend series. `days` are `YYYY-MM-DD` (`YYYY-MM-DD HH:MM:SS` hourly), `labels`
 * `1-Jan-2020` (`1-Jan-2020 13:00` hourly), `count` the sum of `data`. Aggregated displays
 * (pie, bold number, table ...) carry `aggregated_value`; compare adds `compare_label`.
 */
export const trendSeriesSchema = z.looseObject({
  data: z._default(z.array(z.number()), []),
  days: z._default(z.array(z.string()), []),
  labels: z._default(z.array(z.string()), []),
  label: z.string(),
  count: z.number(),
  breakdown_value: z.optional(breakdownValueSchema),
  aggregated_value: z.optional(z.nullable(z.number())),
  compare: z.optional(z.boolean()),
  compare_label: z.optional(z.nullable(z.string())),
  action: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  filter: z.optional(trendResultFilterSchema),
});
export type TrendSeries = z.infer<typeof trendSeriesSchema>;

export const trendResultSchema = analyticsResultSchema(z.array(trendSeriesSchema));
export type TrendResult = z.infer<typeof trendResultSchema>;

/**
 * One funnel step. Conversion times are seconds from the previous step, null on the first.
 * With a breakdown each step also has `breakdown` and `breakdown_value`.
 */
export const funnelStepSchema = z.looseObject({
  action_id: z.nullable(z.union([z.string(), z.number()])),
  name: z.nullable(z.string()),
  custom_name: z.optional(z.nullable(z.string())),
  order: z.union([z.number(), z.string()]),
  count: z.int(),
  type: z.optional(z.string()),
  average_conversion_time: z.nullable(z.number()),
  median_conversion_time: z.nullable(z.number()),
  converted_people_url: z.optional(z.nullable(z.string())),
  dropped_people_url: z.optional(z.nullable(z.string())),
  breakdown: z.optional(breakdownValueSchema),
  breakdown_value: z.optional(breakdownValueSchema),
});
export type FunnelStep = z.infer<typeof funnelStepSchema>;

/** `funnel_viz_type: trends`: conversion rate (%) per interval, one series per breakdown value. */
export const funnelTrendsSeriesSchema = z.looseObject({
  data: z.array(z.number()),
  days: z.array(z.string()),
  labels: z.array(z.string()),
  count: z.optional(z.number()),
  breakdown_value: z.optional(breakdownValueSchema),
});
export type FunnelTrendsSeries = z.infer<typeof funnelTrendsSeriesSchema>;

/** `funnel_viz_type: time_to_convert`: histogram bins `[seconds, persons]`. */
export const funnelTimeToConvertSchema = z.looseObject({
  bins: z.array(z.tuple([z.number(), z.number()])),
  average_conversion_time: z.nullable(z.number()),
});
export type FunnelTimeToConvert = z.infer<typeof funnelTimeToConvertSchema>;

export const funnelStepsResultSchema = analyticsResultSchema(z.array(funnelStepSchema));
/** With a breakdown: one step list per breakdown value. */
export const funnelBreakdownResultSchema = analyticsResultSchema(z.array(z.array(funnelStepSchema)));
export const funnelTrendsResultSchema = analyticsResultSchema(z.array(funnelTrendsSeriesSchema));
export const funnelTimeToConvertResultSchema = analyticsResultSchema(funnelTimeToConvertSchema);

/** Any funnel response: the shape depends on funnel_viz_type and breakdown. */
export const funnelResultSchema = analyticsResultSchema(
  z.union([
    z.array(funnelStepSchema),
    z.array(z.array(funnelStepSchema)),
    z.array(funnelTrendsSeriesSchema),
    funnelTimeToConvertSchema,
  ]),
);
export type FunnelResult = z.infer<typeof funnelResultSchema>;

/** One cohort row of retention: the persons of `date`, and how many came back per period. */
export const retentionCohortSchema = z.looseObject({
  label: z.string(),
  date: z.string(),
  values: z.array(z.looseObject({ count: z.int(), label: z.optional(z.string()) })),
  breakdown_value: z.optional(breakdownValueSchema),
});
export type RetentionCohort = z.infer<typeof retentionCohortSchema>;
export const retentionResultSchema = analyticsResultSchema(z.array(retentionCohortSchema));
export type RetentionResult = z.infer<typeof retentionResultSchema>;

/** One edge of paths: `source` `1_<item>` → `target` `2_<item>`, persons `value`, their mean time between the two in milliseconds (funnels count seconds). */
export const pathEdgeSchema = z.looseObject({
  source: z.string(),
  target: z.string(),
  value: z.number(),
  average_conversion_time: z.nullable(z.number()),
});
export type PathEdge = z.infer<typeof pathEdgeSchema>;
export const pathResultSchema = analyticsResultSchema(z.array(pathEdgeSchema));
export type PathResult = z.infer<typeof pathResultSchema>;
