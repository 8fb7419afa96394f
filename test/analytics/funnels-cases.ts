import { funnelParamsSchema, type FunnelParamsInput } from '../../src/contract/analytics.ts';
import { computeFunnel } from '../../server/analytics/engines/funnels.ts';
import type { QueryContext, ReferenceEvent } from '../../server/analytics/types.ts';

/** Helpers of the funnel, retention and paths tests: terse events and parsed params. */

export const T0 = Date.UTC(2024, 2, 1, 12); // Fri 1 Mar 2024 12:00Z
export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

let counter = 0;

/** An event of `person` (distinct id = person unless given) at T0 + `offset` ms. */
export function ev(
  person: string,
  event: string,
  offset: number,
  properties: Record<string, unknown> = {},
  extra: Partial<ReferenceEvent> = {},
): ReferenceEvent {
  counter += 1;
  return {
    uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    event,
    distinct_id: person,
    person_id: person,
    timestamp: T0 + offset,
    properties,
    person_properties: {},
    ...extra,
  };
}

/** Date range around T0 used by the hand-worked cases. */
export const RANGE = { date_from: '2024-02-20T00:00:00Z', date_to: '2024-03-31T00:00:00Z' } as const;
export const RANGE_MS = { from: Date.UTC(2024, 1, 20), to: Date.UTC(2024, 2, 31) };

export const steps = (...names: (string | null)[]) =>
  names.map((id, order) => ({ id, type: 'events' as const, order }));

export function funnelParams(input: Omit<FunnelParamsInput, 'events'> & { events?: FunnelParamsInput['events'] }) {
  return funnelParamsSchema.parse({ ...RANGE, ...input });
}

export async function runFunnel(ctx: QueryContext, input: Parameters<typeof funnelParams>[0]) {
  return computeFunnel(funnelParams(input), ctx);
}

/** A steps result reduced to what the reference computes: counts and conversion times. */
export function stepNumbers(result: unknown): { count: number; average: number | null; median: number | null }[] {
  return (
    result as { count: number; average_conversion_time: number | null; median_conversion_time: number | null }[]
  ).map((s) => ({
    count: s.count,
    average: s.average_conversion_time,
    median: s.median_conversion_time,
  }));
}
