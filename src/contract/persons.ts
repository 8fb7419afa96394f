import { z } from './z';
import { decodeAnalyticsQuery } from './analytics';
import { funnelParamsSchema } from './analytics-params';
import { endpoint, listQuerySchema, pageSchema } from './common';
import { groupSchema } from './groups';
import { integer, MESSAGES, queryInt, typeError } from './fields';
import { projectParams } from './insights';

/**
 * The persons behind a funnel step: where a step's `converted_people_url` and
 * `dropped_people_url` lead (`/api/projects/:project_id/persons/funnel/?<funnel params>&funnel_step=k`),
 * in the production service's shape. `funnel_step` is 1-based: `k` lists the persons who
 * reached step k, `-k` those who reached step k − 1 and not step k. With a breakdown,
 * `funnel_step_breakdown` names the group (a value, `Other` or `None`). A funnel aggregated by a
 * group type (`aggregation_group_type_index`) lists its groups instead, by key.
 */

/** The listing's own parameters, beside the funnel's. */
export const funnelStepQuerySchema = z.object({
  funnel_step: queryInt({ min: -1000, max: 1000 }).check(
    z.refine((v) => v !== 0, { error: 'Steps are numbered from 1.' }),
  ),
  funnel_step_breakdown: z.optional(z.union([z.string(), z.pipe(z.number(), z.transform(String))])),
  ...listQuerySchema.shape,
});
export type FunnelStepQuery = z.infer<typeof funnelStepQuerySchema>;

/** The funnel's parameters (as its GET form takes them) plus the step, the breakdown group and the page window. */
export const funnelPersonsQuerySchema = z.pipe(
  z.transform(decodeAnalyticsQuery),
  z.intersection(funnelParamsSchema, funnelStepQuerySchema),
);

/** A person as the listing shows one. */
export const funnelPersonSchema = z.looseObject({
  id: z.string(),
  uuid: z.string(),
  /** The `email` person property, else the first distinct id. */
  name: z.string(),
  distinct_ids: z.array(z.string()),
  properties: z.record(z.string(), z.unknown()),
  created_at: z.nullable(z.string()),
  is_identified: z.boolean(),
});
export type FunnelPerson = z.infer<typeof funnelPersonSchema>;

/**
 * A group as the listing of a funnel aggregated by a group type shows one: the `{PRJ}/groups/`
 * shape, with the production service's actor fields `type` ("group") and `id` (the key).
 */
export const funnelGroupActorSchema = z.extend(groupSchema, {
  type: z.literal('group'),
  id: z.string(),
});
export type FunnelGroupActor = z.infer<typeof funnelGroupActorSchema>;

/** Who a funnel step lists: persons, or groups when the funnel is aggregated by a group type. */
export type FunnelActor = FunnelPerson | FunnelGroupActor;
export const isGroupActor = (actor: FunnelActor): actor is FunnelGroupActor =>
  'group_key' in actor && actor.type === 'group';

export const funnelPersonsResultSchema = z.looseObject({
  /** One entry: the page of persons (or groups) and how many are on it. */
  results: z.array(
    z.looseObject({
      people: z.array(z.union([funnelGroupActorSchema, funnelPersonSchema])),
      count: integer({ min: 0 }),
    }),
  ),
  /** The next page (absolute URL), null on the last. */
  next: z.nullable(z.string()),
  is_cached: z.boolean(),
  last_refresh: z.nullable(z.string()),
  timezone: z.string(),
});
export type FunnelPersonsResult = z.infer<typeof funnelPersonsResultSchema>;

/** A person id: any 8-4-4-4-12 hex UUID (persons' ids need not carry an RFC version). */
const personId = () => z.guid({ error: typeError(MESSAGES.uuid) });
const personParams = z.object({ project_id: z.string(), id: personId() });

/** A person's events (`{PRJ}/events/?person_id=`): whose, and the page window. */
export const personEventsQuerySchema = z.object({
  person_id: personId(),
  ...listQuerySchema.shape,
});

/** One event as the person page lists it (the production service's event fields). */
export const personEventSchema = z.looseObject({
  id: z.string(),
  event: z.string(),
  distinct_id: z.string(),
  timestamp: z.string(),
  properties: z.record(z.string(), z.unknown()),
});
export type PersonEvent = z.infer<typeof personEventSchema>;

export const personEndpoints = {
  funnel: endpoint({
    method: 'GET',
    path: '/api/projects/:project_id/persons/funnel/',
    access: 'insight:read',
    summary: 'Persons who reached (or dropped off at) a funnel step',
    params: projectParams,
    query: funnelPersonsQuerySchema,
    status: 200,
    response: funnelPersonsResultSchema,
  }),
  retrieve: endpoint({
    method: 'GET',
    path: '/api/projects/:project_id/persons/:id/',
    access: 'insight:read',
    summary: 'A person by its id: name, distinct ids, properties',
    params: personParams,
    status: 200,
    response: funnelPersonSchema,
    extension: true,
  }),
  events: endpoint({
    method: 'GET',
    path: '/api/projects/:project_id/events/',
    access: 'insight:read',
    summary: "A person's events, newest first (person_id required)",
    params: projectParams,
    query: personEventsQuerySchema,
    status: 200,
    response: pageSchema(personEventSchema),
    extension: true,
  }),
};
