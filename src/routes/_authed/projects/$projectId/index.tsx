import { createFileRoute } from '@tanstack/react-router';
import { OrganizationLink } from '@/features/organizations/components/organization-name';
import { ProjectActivity } from '@/features/insights/components/project-activity';
import { ProjectOverview } from '@/features/projects/components/project-overview';

export const Route = createFileRoute('/_authed/projects/$projectId/')({
  component: ProjectOverviewRoute,
});

function ProjectOverviewRoute() {
  const { projectId } = Route.useParams();
  return (
    <ProjectOverview
      projectId={projectId}
      organizationLink={(organizationId) => <OrganizationLink organizationId={organizationId} />}
      activity={<ProjectActivity projectId={projectId} />}
    />
  );
}
