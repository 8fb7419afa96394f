import { definitionMatches, endpoints, type Page } from '../../../../src/contract/index.ts';
import {
  eventNameStats,
  eventPropertyStats,
  personPropertyStats,
  propertyValueStats,
} from '../../../analytics/query/definitions.ts';
import type { AnalyticsProject, QueryContext } from '../../../analytics/types.ts';
import { validationError } from '../../errors.ts';
import { pageHead, pageWindow } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { cachedAnalysis, projectFor } from '../analytics/endpoint.ts';
import { eventDefinitionResponse, propertyDefinitionResponse, propertyValueResponse } from './serializers.ts';

/** `event_names` as given: a JSON list of names, or names separated by commas. */
export function parseEventNames(raw: string | undefined): string[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.trim().startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(raw);
    } catch {
      throw validationError(
        'invalid_input',
        'Enter a JSON list of event names or names separated by commas.',
        'event_names',
      );
    }
    if (!Array.isArray(list) || !list.every((n) => typeof n === 'string')) {
      throw validationError(
        'invalid_input',
        'Enter a JSON list of event names or names separated by commas.',
        'event_names',
      );
    }
    return [...new Set(list as string[])].sort();
  }
  return [
    ...new Set(
      raw
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== ''),
    ),
  ].sort();
}

/** Most used first, then by name. */
const byVolume = <T extends { name: string; volume_30_day: number }>(a: T, b: T) =>
  b.volume_30_day - a.volume_30_day || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** One page of `items` (already filtered and ordered) with the usual envelope. */
function pageOf<T>(
  url: string,
  query: { limit?: number | undefined; offset?: number | undefined },
  items: readonly T[],
): Page<T> {
  const window = pageWindow(query);
  return { ...pageHead(url, window, items.length), results: items.slice(window.offset, window.offset + window.limit) };
}

/**
 * The builders' pickers: `event_definitions/`, `property_definitions/` and `events/values/` of a
 * project the key can reach (scope insight:read; 404 / 403 as the analysis endpoints). Each
 * whole list is computed from the event store once per store write (the analysis cache, keyed
 * on the store's write version), then searched and paged here.
 */
export function registerDefinitionRoutes(router: Router, deps: Deps): void {
  /** A computation through the shared analysis cache (per project, parameters and store version). */
  const cached = async <P, R>(
    path: string,
    project: AnalyticsProject,
    params: P,
    compute: (ctx: QueryContext) => Promise<R>,
  ) => (await cachedAnalysis<P, R>(deps, path, project, params, (_p, ctx) => compute(ctx))).result;

  router.route(endpoints.eventDefinitions.list, async ({ auth, params, query, url }) => {
    const project = projectFor(deps, auth, params.project_id);
    const stats = await cached('definitions/events', project, {}, ({ db }) =>
      eventNameStats(db, project.id, deps.now()),
    );
    const items = stats.filter((s) => definitionMatches(s.name, query.search)).sort(byVolume);
    const page = pageOf(url, query, items);
    return { ...page, results: page.results.map((s) => eventDefinitionResponse(project.id, s)) };
  });

  router.route(endpoints.propertyDefinitions.list, async ({ auth, params, query, url }) => {
    const project = projectFor(deps, auth, params.project_id);
    const type = query.type ?? 'event';
    const eventNames = type === 'event' ? parseEventNames(query.event_names) : null;
    const stats =
      type === 'person'
        ? await cached('definitions/person-properties', project, {}, ({ db }) => personPropertyStats(db, project.id))
        : await cached('definitions/event-properties', project, { eventNames }, ({ db }) =>
            eventPropertyStats(db, project.id, deps.now(), eventNames),
          );
    const numerical = query.is_numerical === undefined ? undefined : query.is_numerical === 'true';
    const items = stats
      .filter(
        (s) =>
          definitionMatches(s.name, query.search) &&
          (numerical === undefined || (s.property_type === 'Numeric') === numerical),
      )
      .sort(byVolume);
    const page = pageOf(url, query, items);
    return { ...page, results: page.results.map((s) => propertyDefinitionResponse(project.id, type, s)) };
  });

  router.route(endpoints.propertyValues.list, async ({ auth, params, query }) => {
    const project = projectFor(deps, auth, params.project_id);
    const options = {
      key: query.key,
      source: query.type ?? 'event',
      search: query.value || undefined,
      eventName: query.event_name || undefined,
    };
    const values = await cached('definitions/values', project, options, (ctx) =>
      propertyValueStats(ctx, deps.now(), options),
    );
    return values.map(propertyValueResponse);
  });
}
