import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { SwitcherMenu } from '@/components/layout/switcher-menu';
import { projectQueries, SWITCHER_PAGE } from '../api/projects.queries';

interface ProjectSwitcherProps {
  organizationId: string | undefined;
  projectId: number | undefined;
}

/** The current organization's projects (`GET /api/projects/`), to jump between them. */
export function ProjectSwitcher({ organizationId, projectId }: ProjectSwitcherProps) {
  const { data } = useQuery({ ...projectQueries.list(SWITCHER_PAGE), enabled: organizationId !== undefined });
  if (organizationId === undefined) {
    return <p className="px-1 text-sm text-gray-600 dark:text-gray-400">Select an organization to see its projects.</p>;
  }
  const projects = data?.results.filter((project) => project.organization === organizationId);
  const current = projectId ? (projects?.find((project) => project.id === projectId)?.name ?? '…') : null;
  return (
    <SwitcherMenu
      kind="Project"
      current={current}
      placeholder="Select a project"
      emptyText="This organization has no projects"
      entries={projects?.map((project) => ({
        key: String(project.id),
        label: project.name,
        selected: project.id === projectId,
        link: <Link to="/projects/$projectId" params={{ projectId: project.id }} />,
      }))}
    />
  );
}
