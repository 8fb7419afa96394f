import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { optionalParam } from '@/lib/page-search';
import { pipelineQueries } from '@/features/pipeline/api/pipeline.queries';
import { PluginDetail } from '@/features/pipeline/components/plugin-detail';
import { PluginDetailSkeleton } from '@/features/pipeline/components/pipeline-page-states';

const searchSchema = z.object({ project: optionalParam(z.int().check(z.positive())) });

export const Route = createFileRoute('/_authed/organizations/$organizationId/pipeline/$group/$pluginId/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams({})] },
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(pipelineQueries.detail(params.organizationId, params.group, params.pluginId)),
      context.queryClient.ensureQueryData(pipelineQueries.projects(params.organizationId)),
    ]),
  pendingComponent: PluginDetailSkeleton,
  component: PluginDetailRoute,
});

function PluginDetailRoute() {
  const { organizationId, group, pluginId } = Route.useParams();
  const { project } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <PluginDetail
      organizationId={organizationId}
      slug={group}
      pluginId={pluginId}
      projectId={project}
      onProjectChange={(id) => void navigate({ search: { project: id }, replace: true })}
      onDeleted={() =>
        navigate({ to: '/organizations/$organizationId/pipeline/$group', params: { organizationId, group } })
      }
    />
  );
}
