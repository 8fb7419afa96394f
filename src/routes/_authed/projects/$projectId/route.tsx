import { createFileRoute, notFound } from '@tanstack/react-router';
import { parseProjectId, projectQueries } from '@/features/projects/api/projects.queries';
import { ProjectName } from '@/features/projects/components/project-name';

/** A project: `$projectId` is parsed once here (a number, or a 404); its pages are children. */
export const Route = createFileRoute('/_authed/projects/$projectId')({
  params: {
    parse: ({ projectId }) => {
      const id = parseProjectId(projectId);
      if (id === null) throw notFound();
      return { projectId: id };
    },
    stringify: ({ projectId }) => ({ projectId: String(projectId) }),
  },
  staticData: { crumb: ({ params }) => <ProjectName projectId={Number(params.projectId)} /> },
  loader: ({ context, params }) => context.queryClient.ensureQueryData(projectQueries.detail(params.projectId)),
});
