import type { Entity, MathType, PropertyGroup } from '../../../src/contract/analytics.ts';

/** One series of a trend, as the engine computes it. */
export interface TrendSeriesSpec {
  /** Position in the request (A = 0). */
  index: number;
  /** The request's entry, echoed as `action`. */
  entity: Entity;
  /** Event name; null = all events. */
  event: string | null;
  math: MathType;
  mathProperty: string | null;
  /** `math: hogql`: the aggregate expression. */
  mathHogql: string | null;
  properties: PropertyGroup | undefined;
  /** The series name: custom_name, else name, else the event name ("All events" for null). */
  label: string;
}

/** Breakdown values as the production service sends them. */
export const BREAKDOWN_OTHER_VALUE = '$$_posthog_breakdown_other_$$';
export const BREAKDOWN_NULL_VALUE = '$$_posthog_breakdown_null_$$';
export const BREAKDOWN_OTHER_LABEL = 'Other';
export const BREAKDOWN_NULL_LABEL = 'None';
