import { useParams, type ErrorComponentProps } from '@tanstack/react-router';
import { ListPageError, ListPageSkeleton, type ListHeader } from '@/components/list-kit';
import { Skeleton } from '@/components/ui/skeleton';
import { groupLabel, isGroupSlug, type GroupSlug } from '../api/pipeline-groups';

// Kept apart from the pages: the routes' pending and error components load apart from them.

/** A group's list header: its h1 and the line under it. */
export const pipelineHeader = (slug: GroupSlug): ListHeader => ({
  title: groupLabel(slug),
  description: 'Pipeline apps of this organization, enabled per project.',
});

/** The group in the address, for the states drawn before the page (a bad one is a 404 before them). */
function useGroupHeader(): ListHeader {
  const { group } = useParams({ strict: false });
  return pipelineHeader(isGroupSlug(String(group)) ? (group as GroupSlug) : 'destinations');
}

/** While a group's list loads: its header and placeholder rows. */
export function PipelinePageSkeleton() {
  return <ListPageSkeleton {...useGroupHeader()} columns={4} />;
}

/** A group's list failed: the header stays, the error in words with Try again. */
export function PipelinePageError(props: ErrorComponentProps) {
  return <ListPageError {...props} header={useGroupHeader()} />;
}

/** While a plugin's page loads. */
export function PluginDetailSkeleton() {
  return (
    <div className="space-y-4" role="status" aria-label="Loading pipeline apps">
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}
