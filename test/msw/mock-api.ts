/**
 * An in-memory stand-in for the API, so that what a test creates shows up when it lists.
 * Everything it sends back is parsed through the contract's response schemas first.
 */
import type { BatchExport, BatchExportLogEntry, BatchExportRun } from '@/contract/batch-exports';
import { scopesAllow, type EndpointAccess } from '@/contract/common';
import type { Organization } from '@/contract/organizations';
import type { PersonalApiKey } from '@/contract/personal-api-keys';
import type { Project } from '@/contract/projects';
import { buildBatchExport, buildBatchExportRun, buildOrganization, buildPersonalApiKey, buildProject, makeKeyValue } from '../factories';

export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export interface MockBatchExport {
  organizationId: string;
  batchExport: BatchExport;
  runs: BatchExportRun[];
  logs: BatchExportLogEntry[];
}

export interface ErrorBody {
  type: string;
  code: string;
  detail: string;
  attr: string | null;
}

export class MockApi {
  organizations: Organization[] = [];
  projects: Project[] = [];
  /** Key value → key record. */
  keys = new Map<string, PersonalApiKey>();
  /** Batch exports with their secrets (stripped by the handlers), runs (newest first) and logs. */
  batchExports: MockBatchExport[] = [];

  /** A key with every scope, and two organizations with a project each. */
  static seeded(): MockApi {
    const api = new MockApi();
    api.addKey(DEMO_KEY, ['*']);
    api.addOrganization({ name: 'Acme Inc' });
    api.addOrganization({ name: 'Globex' });
    return api;
  }

  addKey(value: string, scopes: string[], overrides: Partial<PersonalApiKey> = {}): PersonalApiKey {
    const key = buildPersonalApiKey({ scopes, ...overrides });
    this.keys.set(value, key);
    return key;
  }

  addOrganization(overrides: Partial<Organization> = {}, projectName = 'Default project'): Organization {
    const slug = overrides.name ? slugify(overrides.name) : undefined;
    const organization = buildOrganization({ ...(slug ? { slug } : {}), ...overrides });
    this.organizations.push(organization);
    this.addProject(organization.id, projectName);
    return this.organization(organization.id)!;
  }

  addProject(organizationId: string, name: string): Project {
    const project = buildProject({ organization: organizationId, name, id: this.nextProjectId() });
    this.projects.push(project);
    this.refreshTeams(organizationId);
    return project;
  }

  /** A batch export in `organizationId` (secrets may be in `destination.config`), with runs. */
  addBatchExport(organizationId: string, overrides: Partial<BatchExport> = {}, runs: Array<Partial<BatchExportRun>> = []): BatchExport {
    const batchExport = buildBatchExport({ team_id: Number(this.organization(organizationId)?.teams[0]?.id ?? 1), ...overrides });
    const built = runs.map((run) => buildBatchExportRun({ ...run, batch_export: batchExport.id }));
    batchExport.latest_runs = built.slice(0, 10);
    this.batchExports.push({ organizationId, batchExport, runs: built, logs: [] });
    return batchExport;
  }

  batchExport(organizationId: string, id: string): MockBatchExport | undefined {
    return this.batchExports.find((entry) => entry.organizationId === organizationId && entry.batchExport.id === id);
  }

  organization(id: string): Organization | undefined {
    return this.organizations.find((organization) => organization.id === id);
  }

  private nextProjectId(): number {
    return this.projects.reduce((max, project) => Math.max(max, project.id), 0) + 1;
  }

  refreshTeams(organizationId: string): void {
    const organization = this.organization(organizationId);
    if (!organization) return;
    organization.teams = this.projects
      .filter((project) => project.organization === organizationId)
      .map((project) => ({ id: project.id, uuid: project.uuid, name: project.name }));
  }

  deleteOrganization(id: string): void {
    this.organizations = this.organizations.filter((organization) => organization.id !== id);
    this.projects = this.projects.filter((project) => project.organization !== id);
  }

  /** The error body for a request's key, or null when `access` allows it (API-DECISIONS wording). */
  authorize(authorization: string | null, access: EndpointAccess): { status: number; body: ErrorBody } | null {
    if (!authorization) {
      return {
        status: 401,
        body: {
          type: 'authentication_error',
          code: 'not_authenticated',
          detail: 'Authentication credentials were not provided.',
          attr: null,
        },
      };
    }
    const key = this.keys.get(authorization.replace(/^Bearer\s+/i, ''));
    if (!key) {
      return {
        status: 401,
        body: {
          type: 'authentication_error',
          code: 'authentication_failed',
          detail: 'Personal API key found in request Authorization header is invalid.',
          attr: null,
        },
      };
    }
    if (access === null) {
      return {
        status: 403,
        body: {
          type: 'authentication_error',
          code: 'permission_denied',
          detail: 'This action does not support personal API key access',
          attr: null,
        },
      };
    }
    if (access !== 'authenticated' && !scopesAllow(key.scopes, access)) {
      return {
        status: 403,
        body: {
          type: 'authentication_error',
          code: 'permission_denied',
          detail: `API key missing required scope '${access}'`,
          attr: null,
        },
      };
    }
    return null;
  }

  keyFor(authorization: string | null): PersonalApiKey | undefined {
    return authorization ? this.keys.get(authorization.replace(/^Bearer\s+/i, '')) : undefined;
  }
}

/** The all-scopes key of `MockApi.seeded()`. */
export const DEMO_KEY = makeKeyValue('demo');
/** A key with read access to organizations only (add it with `api.addKey(READ_ONLY_KEY, ['organization:read'])`). */
export const READ_ONLY_KEY = makeKeyValue('readonly');
