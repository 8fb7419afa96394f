import { z } from './z';
import { GROUP_TYPE_INDEX_MAX } from './analytics-filters';
import { endpoint, listQuerySchema, pageSchema } from './common';
import { MESSAGES, text } from './fields';

/**
 * Groups (docs/api.md, "Groups"): a project's group types and its groups, as the production
 * service's `groups_types/` and `groups/` give them (not in the API's tables: extensions).
 */

/** A group type: its name as events' `$groups` give it, and its index (0–4, in the order first seen). */
export const groupTypeSchema = z.looseObject({
  group_type: z.string(),
  group_type_index: z.int(),
  name_singular: z.nullable(z.string()),
  name_plural: z.nullable(z.string()),
});
export type GroupType = z.infer<typeof groupTypeSchema>;

/** A group: its type, key, properties (from its `$groupidentify` events) and when an event first named it. */
export const groupSchema = z.looseObject({
  group_type_index: z.int(),
  group_key: z.string(),
  group_properties: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

export const groupListQuerySchema = z.extend(listQuerySchema, {
  /** Which type's groups. */
  group_type_index: z.coerce
    .number({ error: MESSAGES.integer })
    .check(z.int({ error: MESSAGES.integer }), z.gte(0), z.lte(GROUP_TYPE_INDEX_MAX)),
  /** Part of the key or of the `name` property, any case. */
  search: z.optional(text(400)),
});
export type GroupListQuery = z.infer<typeof groupListQuerySchema>;

const params = z.object({ project_id: z.string() });

export const groupEndpoints = {
  types: endpoint({
    method: 'GET',
    path: '/api/projects/:project_id/groups_types/',
    access: 'group:read',
    summary: "The project's group types, by index",
    params,
    status: 200,
    response: z.array(groupTypeSchema),
    extension: true,
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/projects/:project_id/groups/',
    access: 'group:read',
    summary: 'The groups of one type, by key (search: part of the key or name)',
    params,
    query: groupListQuerySchema,
    status: 200,
    response: pageSchema(groupSchema),
    extension: true,
  }),
};
