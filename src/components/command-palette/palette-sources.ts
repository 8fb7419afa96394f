import { useQueries, useQuery } from '@tanstack/react-query';
import { batchExportEndpoints } from '@/contract/batch-exports';
import { insightEndpoints } from '@/contract/insights';
import { organizationEndpoints } from '@/contract/organizations';
import { projectEndpoints } from '@/contract/projects';
import { apiRequest } from '@/lib/api-client';
import { paletteRoot } from '@/lib/query-keys';

export { paletteRoot } from '@/lib/query-keys';
/** How many items of each kind the palette shows. */
export const PALETTE_GROUP_SIZE = 6;
/** Every organization, project and export the palette searches (one page each; the demo's are far fewer). */
const PAGE = 100;
const STALE_MS = 30_000;

export interface PaletteOrganization {
  id: string;
  name: string;
}
export interface PaletteProject {
  id: number;
  name: string;
  organizationId: string;
}
export interface PaletteExport {
  id: string;
  name: string;
  paused: boolean;
  organizationId: string;
  organizationName: string;
}
export interface PaletteInsight {
  id: number;
  shortId: string;
  name: string;
  projectId: number;
  projectName: string;
}

export const matches = (name: string, search: string) =>
  name.toLocaleLowerCase().includes(search.trim().toLocaleLowerCase());

/**
 * What the palette can jump to, searched on the server: organizations, projects and each
 * organization's batch exports from their list endpoints (filtered by name here: those endpoints
 * take no search), insights through the insights list's `search` in every project.
 */
export function usePaletteSources(search: string, enabled: boolean) {
  const organizations = useQuery({
    queryKey: [...paletteRoot, 'organizations'],
    queryFn: ({ signal }) => apiRequest(organizationEndpoints.list, { query: { limit: PAGE }, signal }),
    enabled,
    staleTime: STALE_MS,
    select: (page): PaletteOrganization[] => page.results.map((o) => ({ id: o.id, name: o.name })),
  });
  const projects = useQuery({
    queryKey: [...paletteRoot, 'projects'],
    queryFn: ({ signal }) => apiRequest(projectEndpoints.list, { query: { limit: PAGE }, signal }),
    enabled,
    staleTime: STALE_MS,
    select: (page): PaletteProject[] =>
      page.results.map((p) => ({ id: p.id, name: p.name, organizationId: p.organization })),
  });
  const exports = useQueries({
    queries: (organizations.data ?? []).map((organization) => ({
      queryKey: [...paletteRoot, 'batch-exports', organization.id],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiRequest(batchExportEndpoints.list, {
          params: { organization_id: organization.id },
          query: { limit: PAGE },
          signal,
        }),
      enabled,
      staleTime: STALE_MS,
      retry: false,
      select: (page: { results: { id: string; name: string; paused: boolean }[] }): PaletteExport[] =>
        page.results.map((e) => ({
          id: e.id,
          name: e.name,
          paused: e.paused,
          organizationId: organization.id,
          organizationName: organization.name,
        })),
    })),
  });
  const term = search.trim();
  const insights = useQueries({
    queries: (projects.data ?? []).map((project) => ({
      queryKey: [...paletteRoot, 'insights', project.id, term],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiRequest(insightEndpoints.list, {
          params: { project_id: String(project.id) },
          query: { search: term, limit: PALETTE_GROUP_SIZE, saved: true },
          signal,
        }),
      enabled: enabled && term !== '',
      staleTime: STALE_MS,
      retry: false,
      select: (page: {
        results: { id: number; short_id: string; name: string | null; derived_name: string | null }[];
      }): PaletteInsight[] =>
        page.results.map((i) => ({
          id: i.id,
          shortId: i.short_id,
          name: i.name || i.derived_name || 'Untitled insight',
          projectId: project.id,
          projectName: project.name,
        })),
    })),
  });
  return {
    organizations: organizations.data ?? [],
    projects: projects.data ?? [],
    exports: exports.flatMap((q) => q.data ?? []),
    insights: insights.flatMap((q) => q.data ?? []),
    loading:
      organizations.isPending ||
      projects.isPending ||
      exports.some((q) => q.isPending) ||
      insights.some((q) => q.isFetching),
  };
}
