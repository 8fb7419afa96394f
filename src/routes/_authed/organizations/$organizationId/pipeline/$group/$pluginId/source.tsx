import { createFileRoute } from '@tanstack/react-router';
import { pipelineQueries } from '@/features/pipeline/api/pipeline.queries';
import { PluginDetailSkeleton } from '@/features/pipeline/components/pipeline-page-states';
import { SourceEditor } from '@/features/pipeline/components/source-editor';

/** The source editor (CodeMirror loads with this route's chunk only). */
export const Route = createFileRoute('/_authed/organizations/$organizationId/pipeline/$group/$pluginId/source')({
  staticData: { crumb: 'Source' },
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(pipelineQueries.detail(params.organizationId, params.group, params.pluginId)),
      context.queryClient.ensureQueryData(pipelineQueries.source(params.organizationId, params.group, params.pluginId)),
    ]),
  pendingComponent: PluginDetailSkeleton,
  component: SourceRoute,
});

function SourceRoute() {
  const { organizationId, group, pluginId } = Route.useParams();
  return <SourceEditor organizationId={organizationId} slug={group} pluginId={pluginId} />;
}
