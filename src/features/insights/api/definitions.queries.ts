import { queryOptions } from '@tanstack/react-query';
import { cohortEndpoints } from '@/contract/cohorts';
import { groupEndpoints } from '@/contract/groups';
import { eventDefinitionEndpoints, propertyDefinitionEndpoints, propertyValueEndpoints } from '@/contract/definitions';
import { apiRequest, type EndpointResponse } from '@/lib/api-client';
import { projectScope } from '@/lib/query-keys';

type EventsPage = EndpointResponse<typeof eventDefinitionEndpoints.list>;
type PropertiesPage = EndpointResponse<typeof propertyDefinitionEndpoints.list>;
type Values = EndpointResponse<typeof propertyValueEndpoints.list>;

/** How many names a picker asks for at once (the most used first). */
export const DEFINITIONS_PAGE_SIZE = 100;
/** Picker lists change slowly: a minute before they are asked again. */
const STALE_MS = 60_000;

export type PropertyKind = 'event' | 'person';

export interface PropertyDefinitionsParams {
  type: PropertyKind;
  search: string;
  /** Only keys seen on these events (event properties only). */
  eventNames?: readonly string[] | undefined;
  numericOnly?: boolean | undefined;
}

export interface PropertyValuesParams {
  key: string;
  type: PropertyKind;
  search: string;
  eventName?: string | undefined;
}

/**
 * Keys under the project (`['projects', id, 'definitions', …]`), one branch per endpoint, so the
 * events list, the property keys and the values are cached and invalidated apart.
 */
export const definitionKeys = {
  all: (projectId: number) => [...projectScope(projectId), 'definitions'] as const,
  events: (projectId: number, search: string) => [...definitionKeys.all(projectId), 'events', { search }] as const,
  properties: (projectId: number, p: PropertyDefinitionsParams) =>
    [
      ...definitionKeys.all(projectId),
      'properties',
      {
        type: p.type,
        search: p.search,
        eventNames: p.eventNames ? [...p.eventNames] : [],
        numericOnly: Boolean(p.numericOnly),
      },
    ] as const,
  values: (projectId: number, p: PropertyValuesParams) =>
    [
      ...definitionKeys.all(projectId),
      'values',
      { key: p.key, type: p.type, search: p.search, eventName: p.eventName ?? null },
    ] as const,
  cohorts: (projectId: number) => [...definitionKeys.all(projectId), 'cohorts'] as const,
  groupTypes: (projectId: number) => [...definitionKeys.all(projectId), 'group-types'] as const,
  groupPropertyKeys: (projectId: number, index: number) =>
    [...definitionKeys.all(projectId), 'group-property-keys', { index }] as const,
  groupPropertyValues: (projectId: number, index: number, key: string) =>
    [...definitionKeys.all(projectId), 'group-property-values', { index, key }] as const,
};

/**
 * While a new search is typed, the last answer for the same list stays on screen (no flash of
 * "Loading…" per keystroke); another list (another key, type or event) never shows the old one.
 * True when two keys differ at most in their `search`.
 */
function sameListButSearch(previous: readonly unknown[] | undefined, next: readonly unknown[]): boolean {
  if (!previous) return false;
  const strip = (key: readonly unknown[]) => {
    const { search: _search, ...rest } = (key.at(-1) ?? {}) as Record<string, unknown>;
    return JSON.stringify([key.slice(0, -1), rest]);
  };
  return strip(previous) === strip(next);
}

const blankToUndefined = (v: string) => (v.trim() === '' ? undefined : v.trim());

/** The first groups of a type by key: what the group pickers list keys and values from. */
async function firstGroups(projectId: number, index: number, signal: AbortSignal) {
  const page = await apiRequest(groupEndpoints.list, {
    params: { project_id: String(projectId) },
    query: { group_type_index: index, limit: DEFINITIONS_PAGE_SIZE },
    signal,
  });
  return page.results;
}

/** Query options of the builders' pickers: event names, property keys, property values. */
export const definitionQueries = {
  /** The project's cohorts (ids and names), for cohort filters and breakdowns. */
  cohorts: (projectId: number) =>
    queryOptions({
      queryKey: definitionKeys.cohorts(projectId),
      queryFn: ({ signal }) =>
        apiRequest(cohortEndpoints.list, { params: { project_id: String(projectId) }, query: { limit: 1000 }, signal }),
      staleTime: STALE_MS,
    }),
  /** The project's group types by index (what an analysis may aggregate by). */
  groupTypes: (projectId: number) =>
    queryOptions({
      queryKey: definitionKeys.groupTypes(projectId),
      queryFn: ({ signal }) => apiRequest(groupEndpoints.types, { params: { project_id: String(projectId) }, signal }),
      staleTime: STALE_MS,
    }),
  /** The property keys of a group type's groups (those of its first groups by key), sorted. */
  groupPropertyKeys: (projectId: number, index: number) =>
    queryOptions({
      queryKey: definitionKeys.groupPropertyKeys(projectId, index),
      queryFn: async ({ signal }) =>
        [
          ...new Set((await firstGroups(projectId, index, signal)).flatMap((g) => Object.keys(g.group_properties))),
        ].sort(),
      staleTime: STALE_MS,
    }),
  /** The values a group property takes among the type's first groups, with how many groups have each, most first. */
  groupPropertyValues: (projectId: number, index: number, key: string) =>
    queryOptions({
      queryKey: definitionKeys.groupPropertyValues(projectId, index, key),
      queryFn: async ({ signal }) => {
        const counts = new Map<string | number | boolean, number>();
        for (const g of await firstGroups(projectId, index, signal)) {
          const v = g.group_properties[key];
          if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
            counts.set(v, (counts.get(v) ?? 0) + 1);
        }
        return [...counts]
          .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
          .map(([name, count]) => ({ name, count }));
      },
      staleTime: STALE_MS,
    }),
  /** Event names with their 30-day volume, most used first; `search` is a substring of the name. */
  events: (projectId: number, search: string) =>
    queryOptions({
      queryKey: definitionKeys.events(projectId, search),
      placeholderData: (previous: EventsPage | undefined, previousQuery) =>
        sameListButSearch(previousQuery?.queryKey, definitionKeys.events(projectId, search)) ? previous : undefined,
      queryFn: ({ signal }) =>
        apiRequest(eventDefinitionEndpoints.list, {
          params: { project_id: projectId },
          query: { search: blankToUndefined(search), limit: DEFINITIONS_PAGE_SIZE },
          signal,
        }),
      staleTime: STALE_MS,
    }),
  /** Event or person property keys with their value type. */
  properties: (projectId: number, p: PropertyDefinitionsParams) =>
    queryOptions({
      queryKey: definitionKeys.properties(projectId, p),
      placeholderData: (previous: PropertiesPage | undefined, previousQuery) =>
        sameListButSearch(previousQuery?.queryKey, definitionKeys.properties(projectId, p)) ? previous : undefined,
      queryFn: ({ signal }) =>
        apiRequest(propertyDefinitionEndpoints.list, {
          params: { project_id: projectId },
          query: {
            type: p.type,
            search: blankToUndefined(p.search),
            limit: DEFINITIONS_PAGE_SIZE,
            event_names: p.type === 'event' && p.eventNames?.length ? JSON.stringify(p.eventNames) : undefined,
            is_numerical: p.numericOnly ? 'true' : undefined,
          },
          signal,
        }),
      staleTime: STALE_MS,
    }),
  /** Values the property takes (at most 50, most frequent first). */
  values: (projectId: number, p: PropertyValuesParams) =>
    queryOptions({
      queryKey: definitionKeys.values(projectId, p),
      placeholderData: (previous: Values | undefined, previousQuery) =>
        sameListButSearch(previousQuery?.queryKey, definitionKeys.values(projectId, p)) ? previous : undefined,
      queryFn: ({ signal }) =>
        apiRequest(propertyValueEndpoints.list, {
          params: { project_id: projectId },
          query: { key: p.key, type: p.type, value: blankToUndefined(p.search), event_name: p.eventName || undefined },
          signal,
        }),
      staleTime: STALE_MS,
      enabled: p.key !== '',
    }),
};
