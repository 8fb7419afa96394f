import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { paramOr } from '@/lib/page-search';
import { pipelineQueries } from '@/features/pipeline/api/pipeline.queries';
import { PipelinePage } from '@/features/pipeline/components/pipeline-page';
import { PipelinePageSkeleton } from '@/features/pipeline/components/pipeline-states';

const searchSchema = z.object({ unused: paramOr(z.boolean(), false) });

export const Route = createFileRoute('/_authed/organizations/$organizationId/pipeline/$group/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams({ unused: false })] },
  codeSplitGroupings: [['loader', 'component'], ['pendingComponent', 'errorComponent', 'notFoundComponent']],
  loader: ({ context, params }) => context.queryClient.ensureQueryData(pipelineQueries.list(params.organizationId, params.group)),
  pendingComponent: PipelinePageSkeleton,
  component: PipelineRoute,
});

function PipelineRoute() {
  const { organizationId, group } = Route.useParams();
  const { unused } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <PipelinePage key={group} organizationId={organizationId} slug={group} unusedOnly={unused}
      onUnusedOnlyChange={(value) => void navigate({ search: { unused: value } })} />
  );
}
