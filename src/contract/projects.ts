import { z } from './z';
import { endpoint, listQuerySchema, pageSchema, timestampSchema } from './common';

/**
 * A project (a "team" in the production service): owns insights and events.
 * Not described by the API beyond `project_id`; shaped like the production service's.
 */
export const projectSchema = z.looseObject({
  id: z.int(),
  uuid: z.string(),
  organization: z.string(),
  name: z.string(),
  api_token: z.string(),
  timezone: z.string(),
  /** 0 = weeks start on Sunday, 1 = Monday. */
  week_start_day: z.nullable(z.int()),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type Project = z.infer<typeof projectSchema>;

/** The summary of a project embedded in `Organization.teams`. */
export const projectSummarySchema = z.looseObject({
  id: z.int(),
  uuid: z.string(),
  name: z.string(),
});
export type ProjectSummary = z.infer<typeof projectSummarySchema>;

export const projectIdParams = z.object({
  id: z.coerce.number({ error: 'A valid integer is required.' }).check(z.int(), z.positive()),
});

export const projectEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/projects/',
    access: 'project:read',
    summary: 'List the projects the key can reach',
    query: listQuerySchema,
    status: 200,
    response: pageSchema(projectSchema),
  }),
  retrieve: endpoint({
    method: 'GET',
    path: '/api/projects/:id/',
    access: 'project:read',
    summary: 'Retrieve a project',
    params: projectIdParams,
    status: 200,
    response: projectSchema,
  }),
};
