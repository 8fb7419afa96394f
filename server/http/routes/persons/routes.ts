import { endpoints, type PersonEvent } from '../../../../src/contract/index.ts';
import { parseProps, readPersonsPage } from '../../../analytics/store/persons.ts';
import { SqlParams } from '../../../analytics/query/properties.ts';
import { notFound } from '../../errors.ts';
import { pageHead, pageWindow } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { projectFor } from '../analytics/endpoint.ts';

/** The events of a person: those of its distinct ids (a merge moves every distinct id to the surviving person). */
const OF_PERSON =
  'team_id = $1 AND distinct_id IN (SELECT distinct_id FROM person_distinct_ids WHERE team_id = $1 AND person_id = $2::UUID)';

/**
 * A person page's data (docs/server.md, "Persons"): `{PRJ}/persons/:id/` (a person of the
 * project, as a funnel step's listing shows one; 404 for another project's or an unknown id) and
 * `{PRJ}/events/?person_id=` (its events, newest first, paged with limit and offset). Both read
 * the event store; scope insight:read, as the funnel persons.
 */
export function registerPersonRoutes(router: Router, deps: Deps): void {
  router.route(endpoints.persons.retrieve, async ({ auth, params }) => {
    const project = projectFor(deps, auth, params.project_id);
    const sql = new SqlParams();
    const team = sql.add(project.id);
    const select = `SELECT id AS person_id FROM persons WHERE team_id = ${team} AND id = ${sql.add(params.id.toLowerCase())}::UUID`;
    const { people } = await readPersonsPage(deps.events, team, select, sql, { limit: 1, offset: 0 });
    const person = people[0];
    if (!person || person.created_at === null) throw notFound();
    return person;
  });

  router.route(endpoints.persons.events, async ({ auth, params, query, url }) => {
    const project = projectFor(deps, auth, params.project_id);
    const window = pageWindow(query);
    const person = query.person_id.toLowerCase();
    const [counted] = await deps.events.all<{ n: number }>(
      `SELECT count(*)::DOUBLE AS n FROM events WHERE ${OF_PERSON}`,
      [project.id, person],
    );
    const rows = await deps.events.all<{
      id: string;
      event: string;
      distinct_id: string;
      ms: number;
      properties: string | null;
    }>(
      `SELECT uuid::VARCHAR AS id, event, distinct_id, epoch_ms(timestamp)::DOUBLE AS ms, properties::VARCHAR AS properties
        FROM events WHERE ${OF_PERSON} ORDER BY timestamp DESC, uuid DESC LIMIT $3 OFFSET $4`,
      [project.id, person, window.limit, window.offset],
    );
    const results = rows.map((r): PersonEvent => ({
      id: r.id,
      event: r.event,
      distinct_id: r.distinct_id,
      timestamp: new Date(r.ms).toISOString(),
      properties: parseProps(r.properties),
    }));
    return { ...pageHead(url, window, Number(counted?.n ?? 0)), results };
  });
}
