import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { optionalParam, PAGE_DEFAULTS, pageParams, pageSearchSchema } from '@/lib/page-search';
import { pipelineQueries } from '@/features/pipeline/api/pipeline.queries';
import { PipelinePage } from '@/features/pipeline/components/pipeline-page';
import { PipelinePageError, PipelinePageSkeleton } from '@/features/pipeline/components/pipeline-page-states';

/** `?page=&pageSize=` of the group's list; `?project=` the project whose processing order shows. */
const searchSchema = z.extend(pageSearchSchema, { project: optionalParam(z.int().check(z.positive())) });

export const Route = createFileRoute('/_authed/organizations/$organizationId/pipeline/$group/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(PAGE_DEFAULTS)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(
      pipelineQueries.list(params.organizationId, params.group, pageParams(deps.page, deps.pageSize)),
    ),
  pendingComponent: PipelinePageSkeleton,
  errorComponent: PipelinePageError,
  component: PipelineRoute,
});

function PipelineRoute() {
  const { organizationId, group } = Route.useParams();
  const { project } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <PipelinePage
      key={group}
      organizationId={organizationId}
      slug={group}
      projectId={project}
      onProjectChange={(id) => void navigate({ search: (previous) => ({ ...previous, project: id }), replace: true })}
    />
  );
}
