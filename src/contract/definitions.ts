import { z } from './z';
import { endpoint, listQuerySchema, nullableTimestampSchema, pageSchema } from './common';
import { PROPERTY_KEY_MAX, PROPERTY_TYPES } from './analytics-filters';
import { choice, text } from './fields';
import { projectParams } from './insights';

/**
 * What the insight builders' pickers offer, computed from the project's events (the production
 * service's `event_definitions/`, `property_definitions/` and `events/values/`): event names with
 * their volume, property keys with their type, and the values a property takes. Scope
 * insight:read (docs/api.md, "Scopes of the † endpoints"). Lists are pages, most used first, then by name.
 */

/** Property value types as the production service names them. */
export const PROPERTY_VALUE_TYPES = ['String', 'Numeric', 'Boolean', 'DateTime'] as const;
export type PropertyValueType = (typeof PROPERTY_VALUE_TYPES)[number];

export const eventDefinitionSchema = z.looseObject({
  /** Stable id of the definition (the production service sends a UUID; here derived from the name). */
  id: z.string(),
  name: z.string(),
  /** Events with this name in the last 30 days. */
  volume_30_day: z.nullable(z.int()),
  /** Insight queries that used it in the last 30 days (null when not tracked). */
  query_usage_30_day: z.nullable(z.int()),
  created_at: nullableTimestampSchema,
  last_seen_at: nullableTimestampSchema,
});
export type EventDefinition = z.infer<typeof eventDefinitionSchema>;

export const propertyDefinitionSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** `event` or `person`. */
  type: z.string(),
  property_type: z.nullable(z.enum(PROPERTY_VALUE_TYPES)),
  is_numerical: z.boolean(),
  /** Events (or persons) that carry the property, in the counting window. */
  volume_30_day: z.optional(z.nullable(z.int())),
});
export type PropertyDefinition = z.infer<typeof propertyDefinitionSchema>;

/** One suggestion of `events/values/`: the value as text (`name`) and how often it occurs. */
export const propertyValueSchema = z.looseObject({
  name: z.union([z.string(), z.number(), z.boolean()]),
  count: z.optional(z.int()),
});
export type PropertyValueSuggestion = z.infer<typeof propertyValueSchema>;

/**
 * Whether a definition's `name` matches a `search`, as the production service matches it: every
 * word of the search (split on spaces) appears in the name, in any letter case. "current url"
 * finds `$current_url`, "country code" `$geoip_country_code`; no search matches everything.
 */
export function definitionMatches(name: string, search: string | undefined): boolean {
  if (!search) return true;
  const lower = name.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .every((word) => lower.includes(word));
}

const searchSchema = z
  .string()
  .check(z.maxLength(400, { error: 'Ensure this field has no more than 400 characters.' }));

export const eventDefinitionsQuerySchema = z.object({
  ...listQuerySchema.shape,
  /** Case-insensitive substring of the name. */
  search: z.optional(searchSchema),
});

export const propertyDefinitionsQuerySchema = z.object({
  ...listQuerySchema.shape,
  search: z.optional(searchSchema),
  /** `event` (default) or `person`. */
  type: z.optional(choice(PROPERTY_TYPES)),
  /** Only keys seen on these events (comma-separated or JSON list), for a series' own filters. */
  event_names: z.optional(z.string().check(z.maxLength(20_000))),
  /** `true`: only numeric properties (for sum/avg/... maths). */
  is_numerical: z.optional(z.enum(['true', 'false'])),
});

export const propertyValuesQuerySchema = z.object({
  key: text(PROPERTY_KEY_MAX),
  /** `event` (default) or `person`. */
  type: z.optional(choice(PROPERTY_TYPES)),
  /** Case-insensitive substring of the value. */
  value: z.optional(searchSchema),
  /** Only values seen on this event. */
  event_name: z.optional(z.string().check(z.maxLength(PROPERTY_KEY_MAX))),
});

export const eventDefinitionEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/projects/:project_id/event_definitions/',
    access: 'insight:read',
    summary: 'Event names of the project with their volume',
    params: projectParams,
    query: eventDefinitionsQuerySchema,
    status: 200,
    response: pageSchema(eventDefinitionSchema),
  }),
};

export const propertyDefinitionEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/projects/:project_id/property_definitions/',
    access: 'insight:read',
    summary: 'Event or person property keys of the project with their type',
    params: projectParams,
    query: propertyDefinitionsQuerySchema,
    status: 200,
    response: pageSchema(propertyDefinitionSchema),
  }),
};

export const propertyValueEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/projects/:project_id/events/values/',
    access: 'insight:read',
    summary: 'Values a property takes, most frequent first (at most 50)',
    params: projectParams,
    query: propertyValuesQuerySchema,
    status: 200,
    response: z.array(propertyValueSchema),
  }),
};
