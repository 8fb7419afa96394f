import { endpoints, type Cohort, type CohortFilters } from '../../../../src/contract/index.ts';
import {
  addStaticMembers,
  computeDynamicCohort,
  criteriaRegexes,
  csvFirstColumn,
  removeStaticMember,
  unknownPersons,
  type StaticMembers,
} from '../../../analytics/query/cohorts.ts';
import { checkRegexes } from '../../../analytics/query/filters.ts';
import { readPersonsPage } from '../../../analytics/store/persons.ts';
import { SqlParams } from '../../../analytics/query/properties.ts';
import type { CohortRow } from '../../../store/cohorts.ts';
import { reachableProject } from '../../access.ts';
import type { AuthContext } from '../../auth.ts';
import { notFound, validationError } from '../../errors.ts';
import { pageHead, pageWindow, paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { analyticsCacheOf } from '../analytics/endpoint.ts';

/**
 * `{PRJ}/cohorts/` (docs/api.md, "Cohorts"): list, create, retrieve, update, soft delete
 * (`deleted: true`; DELETE is a 405), a cohort's persons, and persons added to or removed
 * from a static cohort. Members are computed in the request (server/analytics/query/cohorts.ts) whenever a
 * dynamic cohort is created or changed, or a static one is given persons, and are kept in
 * the event store; the analyses read them there.
 */

export function cohortResponse(row: CohortRow): Cohort {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    groups: [],
    filters: row.filters === null ? null : (JSON.parse(row.filters) as Cohort['filters']),
    deleted: row.deleted === 1,
    is_static: row.is_static === 1,
    is_calculating: row.is_calculating === 1,
    created_by: row.created_by_user === null ? null : (JSON.parse(row.created_by_user) as Cohort['created_by']),
    created_at: row.created_at,
    last_calculation: row.last_calculation,
    errors_calculating: row.errors_calculating,
    count: row.count,
  };
}

export function registerCohortRoutes(router: Router, deps: Deps): void {
  const { store, now } = deps;
  const e = endpoints.cohorts;

  const projectOf = (auth: AuthContext, raw: string) => {
    if (!/^\d{1,15}$/.test(raw)) throw notFound();
    return reachableProject(store, auth, Number(raw));
  };
  const cohortOf = (auth: AuthContext, projectId: string, id: number) => {
    const project = projectOf(auth, projectId);
    const row = store.cohorts.get(id);
    if (!row || row.team_id !== project.id) throw notFound();
    return row;
  };
  const staticMembers = async (
    teamId: number,
    csv: string | undefined,
    personIds: readonly string[] | undefined,
    attr: string,
  ): Promise<StaticMembers> => {
    const unknown = await unknownPersons(deps.events, teamId, personIds ?? []);
    if (unknown.length > 0)
      throw validationError('invalid_input', `No person of this project has the id ${unknown[0]}.`, attr);
    return { idsOrEmails: csv === undefined ? [] : csvFirstColumn(csv), personIds: personIds ?? [] };
  };
  /** Computes the cohort's members (dynamic: again; static: adds `members`), then answers it. */
  const compute = async (id: number, members?: StaticMembers): Promise<Cohort> => {
    const row = store.cohorts.get(id)!;
    store.cohorts.calculating(id);
    try {
      const count =
        row.is_static === 1
          ? await addStaticMembers(deps.events, row.team_id, id, members ?? {})
          : await computeDynamicCohort(
              deps.events,
              row.team_id,
              id,
              JSON.parse(row.filters ?? 'null') as CohortFilters,
              now(),
            );
      store.cohorts.calculated(id, count, now().toISOString());
    } catch (error) {
      store.cohorts.failed(id);
      throw error;
    }
    // Analyses cached before name their cohorts by their old names, or count old members.
    analyticsCacheOf(deps).clear();
    return cohortResponse(store.cohorts.get(id)!);
  };

  /** A regex the database cannot compile is a 400 on its criterion's value, before anything is stored. */
  const checkCriteria = async (filters: CohortFilters | null | undefined) => {
    if (!filters) return;
    await checkRegexes(deps.events, criteriaRegexes(filters)); // a FilterParamError answers 400 (apiErrorOf, http/errors.ts)
  };

  router.route(e.list, ({ auth, params, query, url }) => {
    const project = projectOf(auth, params.project_id);
    return paginate(
      url,
      query,
      () => store.cohorts.count(project.id),
      ({ limit, offset }) => store.cohorts.list(project.id, limit, offset).map(cohortResponse),
    );
  });

  router.route(e.create, async ({ auth, params, body }) => {
    const project = projectOf(auth, params.project_id);
    const isStatic = body.is_static === true;
    if (!isStatic) await checkCriteria(body.filters as CohortFilters | undefined);
    const members = isStatic
      ? await staticMembers(project.id, body.csv, body._create_static_person_ids, '_create_static_person_ids')
      : undefined;
    const id = store.cohorts.create(
      {
        team_id: project.id,
        name: body.name ?? null,
        description: body.description ?? '',
        filters: isStatic || !body.filters ? null : JSON.stringify(body.filters),
        is_static: isStatic,
        created_by: auth.userId,
      },
      now().toISOString(),
    );
    return compute(id, members);
  });

  router.route(e.retrieve, ({ auth, params }) => cohortResponse(cohortOf(auth, params.project_id, params.id)));

  router.route(e.update, async ({ auth, params, body }) => {
    const row = cohortOf(auth, params.project_id, params.id);
    const isStatic = row.is_static === 1;
    if (isStatic && body.filters)
      throw validationError('invalid_input', 'A static cohort has no criteria: upload persons instead.', 'filters');
    if (!isStatic && body.csv !== undefined)
      throw validationError('invalid_input', 'Only a static cohort takes a CSV of persons.', 'csv');
    if (!isStatic) await checkCriteria(body.filters as CohortFilters | undefined);
    const members =
      isStatic && body.csv !== undefined ? await staticMembers(row.team_id, body.csv, [], 'csv') : undefined;
    const deleted = body.deleted === undefined ? row.deleted : body.deleted ? 1 : 0;
    store.cohorts.update(
      row.id,
      {
        name: body.name === undefined ? row.name : body.name,
        description: body.description ?? row.description,
        filters: body.filters ? JSON.stringify(body.filters) : row.filters,
        deleted,
      },
      now().toISOString(),
    );
    // As the production service: a change other than (un)deleting computes the members again.
    if (deleted === 1 || (body.deleted !== undefined && deleted !== row.deleted)) {
      analyticsCacheOf(deps).clear();
      return cohortResponse(store.cohorts.get(row.id)!);
    }
    return compute(row.id, members);
  });

  // Hard delete is not allowed, as for insights: 405 with an empty body, once the cohort is known to exist.
  router.route(e.destroy, ({ auth, params, c }) => {
    cohortOf(auth, params.project_id, params.id);
    return c.body(null, 405, { Allow: 'GET, PATCH' });
  });

  router.route(e.persons, async ({ auth, params, query, url }) => {
    const row = cohortOf(auth, params.project_id, params.id);
    const window = pageWindow(query);
    const sql = new SqlParams();
    const team = sql.add(row.team_id);
    const page = await readPersonsPage(
      deps.events,
      team,
      `SELECT cp.person_id FROM cohort_people cp WHERE cp.team_id = ${team} AND cp.cohort_id = ${sql.add(row.id)}`,
      sql,
      window,
    );
    const head = pageHead(url, window, row.count ?? 0);
    return { results: page.people, next: page.more ? head.next : null, previous: head.previous, count: row.count ?? 0 };
  });

  router.route(e.addPersons, async ({ auth, params, body }) => {
    const row = cohortOf(auth, params.project_id, params.id);
    if (row.is_static !== 1)
      throw validationError('invalid_input', 'Persons can be added only to a static cohort.', 'person_ids');
    return compute(row.id, await staticMembers(row.team_id, undefined, body.person_ids, 'person_ids'));
  });

  router.route(e.removePerson, async ({ auth, params, body }) => {
    const row = cohortOf(auth, params.project_id, params.id);
    if (row.is_static !== 1)
      throw validationError('invalid_input', 'Persons can be removed only from a static cohort.', 'person_id');
    const count = await removeStaticMember(deps.events, row.team_id, row.id, body.person_id);
    store.cohorts.calculated(row.id, count, now().toISOString());
    analyticsCacheOf(deps).clear();
    return cohortResponse(store.cohorts.get(row.id)!);
  });
}
