import { createFileRoute, notFound } from '@tanstack/react-router';
import { parseProjectId, projectQueries } from '@/features/projects/api/projects.queries';
import { ProjectName } from '@/features/projects/components/project-name';

/** A project: its crumb is its name; its pages (overview, insights) are children. */
export const Route = createFileRoute('/_authed/projects/$projectId')({
  staticData: { crumb: ({ params }) => <ProjectName projectId={params.projectId ?? ''} /> },
  loader: ({ context, params }) => {
    const projectId = parseProjectId(params.projectId);
    if (projectId === null) throw notFound();
    return context.queryClient.ensureQueryData(projectQueries.detail(projectId));
  },
});
