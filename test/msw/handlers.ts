/**
 * MSW handlers for the API, built from the contract: paths from the endpoint registry, request
 * bodies validated with the contract's request schemas (400 with `attr`), responses parsed with
 * its response schemas. State lives in a MockApi so that create-then-list works.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { z } from 'zod';
import {
  BATCH_EXPORT_INTERVAL_MS,
  batchExportEndpoints,
  batchExportLogsQuerySchema,
  mergeDestinationConfig,
  redactDestination,
  type BatchExport,
} from '@/contract/batch-exports';
import { DEFAULT_PAGE_SIZE, listQuerySchema, MAX_PAGE_SIZE, type Endpoint } from '@/contract/common';
import { organizationEndpoints } from '@/contract/organizations';
import { personalApiKeyEndpoints } from '@/contract/personal-api-keys';
import { projectEndpoints } from '@/contract/projects';
import { buildBatchExport, buildBatchExportRun, buildOrganization } from '../factories';
import { MockApi, slugify, type ErrorBody } from './mock-api';

let api = MockApi.seeded();

/** The state behind the handlers (seed it, or look at it after an action). */
export function mockApi(): MockApi {
  return api;
}

/** Starts again from `MockApi.seeded()` (or the given state). */
export function resetMockApi(next: MockApi = MockApi.seeded()): MockApi {
  api = next;
  return api;
}

/** `/api/organizations/:id/` → a pattern matching any origin. */
export function apiUrl(endpoint: Endpoint): string {
  return `*${endpoint.path}`;
}

function errorResponse(status: number, body: ErrorBody) {
  return HttpResponse.json(body, { status, headers: status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {} });
}

function respond<E extends Endpoint>(endpoint: E, body: unknown) {
  if (!endpoint.response) return new HttpResponse(null, { status: endpoint.status });
  return HttpResponse.json(endpoint.response.parse(body) as Record<string, unknown>, { status: endpoint.status });
}

function validationError(error: z.ZodError) {
  const issue = error.issues[0]!;
  const code =
    issue.code === 'too_big'
      ? 'max_length'
      : issue.code === 'invalid_type' && issue.input === undefined
        ? 'required'
        : 'invalid_input';
  return errorResponse(400, { type: 'validation_error', code, detail: issue.message, attr: issue.path.join('__') || null });
}

const notFound = () => errorResponse(404, { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });

function paginate<T>(request: Request, items: T[]) {
  const url = new URL(request.url);
  const parsed = listQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return { error: validationError(parsed.error) } as const;
  const limit = Math.min(parsed.data.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const offset = parsed.data.offset ?? 0;
  const link = (newOffset: number) => {
    const target = new URL(url);
    target.searchParams.set('limit', String(limit));
    target.searchParams.set('offset', String(newOffset));
    return target.toString();
  };
  return {
    page: {
      count: items.length,
      next: offset + limit < items.length ? link(offset + limit) : null,
      previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
      results: items.slice(offset, offset + limit),
    },
  } as const;
}

async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}

/** Runs `handle` when the request's key may use `endpoint`, else answers 401/403 as the API does. */
function guarded<E extends Endpoint>(
  endpoint: E,
  handle: (info: {
    request: Request;
    params: Record<string, string | readonly string[] | undefined>;
  }) => Response | Promise<Response>,
): HttpHandler {
  const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
  return http[method](apiUrl(endpoint), async ({ request, params }) => {
    const denied = api.authorize(request.headers.get('Authorization'), endpoint.access);
    if (denied) return errorResponse(denied.status, denied.body);
    return handle({ request, params });
  });
}

export const handlers: HttpHandler[] = [
  guarded(personalApiKeyEndpoints.current, ({ request }) =>
    respond(personalApiKeyEndpoints.current, api.keyFor(request.headers.get('Authorization'))),
  ),

  guarded(organizationEndpoints.list, ({ request }) => {
    const result = paginate(request, api.organizations);
    return 'error' in result ? result.error! : respond(organizationEndpoints.list, result.page);
  }),
  guarded(organizationEndpoints.create, async ({ request }) => {
    const parsed = organizationEndpoints.create.body.safeParse(await readJson(request));
    if (!parsed.success) return validationError(parsed.error);
    const { name, is_member_join_email_enabled, enforce_2fa } = parsed.data;
    const organization = buildOrganization({
      name,
      slug: slugify(name),
      is_member_join_email_enabled: is_member_join_email_enabled ?? true,
      enforce_2fa: enforce_2fa ?? false,
    });
    api.organizations.push(organization);
    api.addProject(organization.id, 'Default project');
    return respond(organizationEndpoints.create, api.organization(organization.id));
  }),
  guarded(organizationEndpoints.retrieve, ({ params }) => {
    const organization = api.organization(String(params.id));
    return organization ? respond(organizationEndpoints.retrieve, organization) : notFound();
  }),
  guarded(organizationEndpoints.update, async ({ request, params }) => {
    const organization = api.organization(String(params.id));
    if (!organization) return notFound();
    const parsed = organizationEndpoints.update.body.safeParse(await readJson(request));
    if (!parsed.success) return validationError(parsed.error);
    Object.assign(organization, parsed.data, { updated_at: new Date().toISOString() });
    return respond(organizationEndpoints.update, organization);
  }),
  guarded(organizationEndpoints.destroy, ({ params }) => {
    if (!api.organization(String(params.id))) return notFound();
    api.deleteOrganization(String(params.id));
    return respond(organizationEndpoints.destroy, undefined);
  }),

  guarded(projectEndpoints.list, ({ request }) => {
    const result = paginate(request, api.projects);
    return 'error' in result ? result.error! : respond(projectEndpoints.list, result.page);
  }),
  guarded(projectEndpoints.retrieve, ({ params }) => {
    const project = api.projects.find((candidate) => String(candidate.id) === String(params.id));
    return project ? respond(projectEndpoints.retrieve, project) : notFound();
  }),
];

/** What the API sends for an export: secrets never echoed. */
function exportOut(batchExport: BatchExport): BatchExport {
  return { ...batchExport, destination: redactDestination(batchExport.destination as { type: string; config: Record<string, unknown> }) } as BatchExport;
}

const param = (params: Record<string, string | readonly string[] | undefined>, name: string) => String(params[name]);

function findExport(params: Record<string, string | readonly string[] | undefined>) {
  return api.batchExport(param(params, 'organization_id'), param(params, 'id'));
}

function setPaused(params: Record<string, string | readonly string[] | undefined>, paused: boolean, endpoint: typeof batchExportEndpoints.pause | typeof batchExportEndpoints.unpause) {
  const entry = findExport(params);
  if (!entry) return notFound();
  if (entry.batchExport.paused !== paused) {
    entry.batchExport.paused = paused;
    if (paused) entry.batchExport.last_paused_at = new Date().toISOString();
  }
  return respond(endpoint, exportOut(entry.batchExport));
}

export const batchExportHandlers: HttpHandler[] = [
  guarded(batchExportEndpoints.list, ({ request, params }) => {
    const organizationId = param(params, 'organization_id');
    if (!api.organization(organizationId)) return notFound();
    const items = api.batchExports.filter((entry) => entry.organizationId === organizationId).map((entry) => exportOut(entry.batchExport));
    const result = paginate(request, items);
    return 'error' in result ? result.error! : respond(batchExportEndpoints.list, result.page);
  }),
  guarded(batchExportEndpoints.create, async ({ request, params }) => {
    const organizationId = param(params, 'organization_id');
    const organization = api.organization(organizationId);
    if (!organization) return notFound();
    const parsed = batchExportEndpoints.create.body.safeParse(await readJson(request));
    if (!parsed.success) return validationError(parsed.error);
    const { destination, ...rest } = parsed.data;
    const batchExport = buildBatchExport({
      ...rest,
      team_id: rest.team_id ?? Number(organization.teams[0]?.id ?? 1),
      paused: rest.paused ?? false,
      start_at: rest.start_at ?? null,
      end_at: rest.end_at ?? null,
      hogql_query: rest.hogql_query ?? null,
      destination: destination as BatchExport['destination'],
    });
    api.batchExports.push({ organizationId, batchExport, runs: [], logs: [] });
    return respond(batchExportEndpoints.create, exportOut(batchExport));
  }),
  guarded(batchExportEndpoints.retrieve, ({ params }) => {
    const entry = findExport(params);
    return entry ? respond(batchExportEndpoints.retrieve, exportOut(entry.batchExport)) : notFound();
  }),
  guarded(batchExportEndpoints.update, async ({ request, params }) => {
    const entry = findExport(params);
    if (!entry) return notFound();
    const parsed = batchExportEndpoints.update.body.safeParse(await readJson(request));
    if (!parsed.success) return validationError(parsed.error);
    const { destination, ...rest } = parsed.data;
    const stored = entry.batchExport.destination as { type: string; config: Record<string, unknown> };
    const next = destination
      ? { type: destination.type, config: mergeDestinationConfig(stored, destination as { type: string; config: Record<string, unknown> }) }
      : stored;
    Object.assign(entry.batchExport, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)), {
      destination: next,
      last_updated_at: new Date().toISOString(),
    });
    return respond(batchExportEndpoints.update, exportOut(entry.batchExport));
  }),
  guarded(batchExportEndpoints.destroy, ({ params }) => {
    const entry = findExport(params);
    if (!entry) return notFound();
    api.batchExports = api.batchExports.filter((candidate) => candidate !== entry);
    return respond(batchExportEndpoints.destroy, undefined);
  }),
  guarded(batchExportEndpoints.pause, ({ params }) => setPaused(params, true, batchExportEndpoints.pause)),
  guarded(batchExportEndpoints.unpause, ({ params }) => setPaused(params, false, batchExportEndpoints.unpause)),
  guarded(batchExportEndpoints.backfill, async ({ request, params }) => {
    const entry = findExport(params);
    if (!entry) return notFound();
    const parsed = batchExportEndpoints.backfill.body.safeParse(await readJson(request));
    if (!parsed.success) return validationError(parsed.error);
    const start = Date.parse(parsed.data.start_at);
    const end = Date.parse(parsed.data.end_at);
    if (end > Date.now()) {
      return errorResponse(400, { type: 'validation_error', code: 'invalid_input', detail: 'The end of the backfill cannot be in the future.', attr: 'end_at' });
    }
    const size = BATCH_EXPORT_INTERVAL_MS[entry.batchExport.interval];
    const now = new Date().toISOString();
    for (let at = start; at + size <= end; at += size) {
      entry.runs.unshift(
        buildBatchExportRun({
          batch_export: entry.batchExport.id,
          status: 'Completed',
          records_completed: 0,
          data_interval_start: new Date(at).toISOString(),
          data_interval_end: new Date(at + size).toISOString(),
          created_at: now,
          finished_at: now,
          last_updated_at: now,
        }),
      );
    }
    entry.batchExport.latest_runs = entry.runs.slice(0, 10);
    return respond(batchExportEndpoints.backfill, exportOut(entry.batchExport));
  }),
  guarded(batchExportEndpoints.runs, ({ request, params }) => {
    const entry = findExport(params);
    if (!entry) return notFound();
    const result = paginate(request, entry.runs);
    return 'error' in result ? result.error! : respond(batchExportEndpoints.runs, result.page);
  }),
  guarded(batchExportEndpoints.logs, ({ request, params }) => {
    const entry = findExport(params);
    if (!entry) return notFound();
    const query = batchExportLogsQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return validationError(query.error);
    const result = paginate(request, entry.logs);
    return 'error' in result ? result.error! : respond(batchExportEndpoints.logs, result.page);
  }),
];

handlers.push(...batchExportHandlers);

/** A 400 as the API sends it, for `server.use(...)` overrides. */
export function validationErrorResponse(attr: string, detail: string, code = 'invalid_input') {
  return errorResponse(400, { type: 'validation_error', code, detail, attr });
}
