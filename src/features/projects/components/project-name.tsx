import { useQuery } from '@tanstack/react-query';
import { parseProjectId, projectQueries } from '../api/projects.queries';

/** The project's name (breadcrumbs). */
export function ProjectName({ projectId }: { projectId: string }) {
  const id = parseProjectId(projectId);
  const { data, isError } = useQuery({ ...projectQueries.detail(id ?? 0), enabled: id !== null });
  return <>{data?.name ?? (isError || id === null ? 'Unknown project' : '…')}</>;
}

/** The organization a project belongs to, once the project is loaded. */
export function useProjectOrganizationId(projectId: string | undefined): string | undefined {
  const id = projectId === undefined ? null : parseProjectId(projectId);
  const { data } = useQuery({ ...projectQueries.detail(id ?? 0), enabled: id !== null });
  return data?.organization;
}
