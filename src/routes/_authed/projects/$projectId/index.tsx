import { createFileRoute } from '@tanstack/react-router';
import { OrganizationLink } from '@/features/organizations/components/organization-name';
import { parseProjectId } from '@/features/projects/api/projects.queries';
import { ProjectOverview } from '@/features/projects/components/project-overview';

export const Route = createFileRoute('/_authed/projects/$projectId/')({
  component: ProjectOverviewRoute,
});

function ProjectOverviewRoute() {
  const { projectId } = Route.useParams();
  return (
    <ProjectOverview
      projectId={parseProjectId(projectId) ?? 0}
      organizationLink={(organizationId) => <OrganizationLink organizationId={organizationId} />}
    />
  );
}
