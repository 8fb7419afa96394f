import { useQuery } from '@tanstack/react-query';
import { projectQueries } from '../api/projects.queries';

/** The project's name (breadcrumbs). */
export function ProjectName({ projectId }: { projectId: number }) {
  const { data, isError } = useQuery(projectQueries.detail(projectId));
  return <>{data?.name ?? (isError ? 'Unknown project' : '…')}</>;
}

/** The organization a project belongs to, once the project is loaded. */
export function useProjectOrganizationId(projectId: number | undefined): string | undefined {
  const { data } = useQuery({ ...projectQueries.detail(projectId ?? 0), enabled: projectId !== undefined });
  return data?.organization;
}
