import { useSuspenseQuery } from '@tanstack/react-query';
import { Copy, Download, RotateCcw, Share2, Trash2 } from 'lucide-react';
import { Suspense, useEffect, useState } from 'react';
import { toast } from '@/lib/toast';
import { blankableText } from '@/contract/fields';
import { INSIGHT_LIMITS, INSIGHT_NAME_MAX, insightEndpoints } from '@/contract/insights';
import { describeError } from '@/lib/error-messages';
import { TableSkeleton } from '@/components/data-table/table-skeleton';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCan } from '@/lib/auth';
import { downloadInsightCsv } from '../api/insight-csv';
import { insightTitle } from '../api/insight-title';
import {
  useCreateInsight,
  useDeleteWithUndo,
  useInsightViewed,
  useRefreshInsight,
  useSetFavorited,
  useUpdateInsight,
} from '../api/insights.mutations';
import { insightQueries } from '../api/insights.queries';
import { ActivityPanel } from './activity-panel';
import { EditInsightLink } from './builder/insight-entry-links';
import { detailRoute, useAddressedInsightId } from './detail-route';
import { FavoriteButton } from './favorite-button';
import { InlineEdit } from './inline-edit';
import { insightKind, KindIcon, kindLabel } from './insight-kind';
import { InsightResult } from './insight-result';
import { QuerySummary } from './query-summary';
import { RefreshStatus } from './refresh-status';
import { SharingDialog } from './sharing-dialog';
import { TagsEditor } from './tags-editor';
import { useActorWords } from '../api/use-actor-words';
import { aggregationIndexOf } from './result-model';

type DetailTab = 'results' | 'activity';

/** One insight: its chart and numbers, its name, description and tags edited in place, and its actions. */
export function InsightPage() {
  const { projectId, insightId: address } = detailRoute.useParams();
  const insightId = useAddressedInsightId(projectId, address);
  const { tab, share } = detailRoute.useSearch();
  const navigate = detailRoute.useNavigate();
  const { data: insight } = useSuspenseQuery(insightQueries.detail(projectId, insightId));
  const update = useUpdateInsight(projectId, insightId);
  const refresh = useRefreshInsight(projectId, insightId);
  const duplicate = useCreateInsight(projectId);
  const { mutate: setFavorited } = useSetFavorited(projectId);
  const { mutate: viewed } = useInsightViewed(projectId, insightId);
  const deleteWithUndo = useDeleteWithUndo(projectId);
  // A deleted insight is only restored (the server no longer serves it to anything else).
  const canWrite = useCan(insightEndpoints.update.access).allowed && !insight.deleted;
  const [downloading, setDownloading] = useState(false);
  const title = insightTitle(insight);
  const actors = useActorWords(projectId, aggregationIndexOf(insight));
  const kind = insightKind(insight);

  // Opening the page counts as a view ("Recently viewed" on the list); a deleted one's does not
  // (the server no longer serves it).
  const deleted = insight.deleted;
  useEffect(() => {
    if (!deleted) viewed();
  }, [viewed, insightId, deleted]);

  const onTabChange = (next: DetailTab) =>
    void navigate({ search: (previous) => ({ ...previous, tab: next }), replace: true });
  const setShareOpen = (open: boolean) =>
    void navigate({ search: (previous) => ({ ...previous, share: open ? true : undefined }), replace: !open });
  const toList = () => navigate({ to: '/projects/$projectId/insights', params: { projectId } });

  const onDuplicate = async () => {
    try {
      const copy = await duplicate.mutateAsync({
        name: `${title} (copy)`,
        description: insight.description,
        filters: insight.filters,
        query: insight.query as Record<string, unknown> | null,
        tags: insight.tags,
        saved: true,
      });
      toast.success(`Created “${insightTitle(copy)}”`);
      void navigate({
        to: '/projects/$projectId/insights/$insightId',
        params: { projectId, insightId: copy.short_id },
        search: {},
      });
    } catch (error) {
      toast.error(`Couldn't duplicate “${title}”: ${describeError(error)}`);
    }
  };

  const onDownload = async () => {
    setDownloading(true);
    try {
      await downloadInsightCsv(projectId, insightId);
    } catch (error) {
      toast.error(`Couldn't download the CSV: ${describeError(error)}`);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="space-y-6">
      {insight.deleted ? (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950"
        >
          <span>This insight is deleted: it is no longer listed.</span>
          <ScopedAction scope={insightEndpoints.update.access}>
            <Button
              size="sm"
              onClick={() =>
                update.mutate({ deleted: false }, { onSuccess: () => toast.success(`Restored “${title}”`) })
              }
            >
              <RotateCcw aria-hidden="true" className="size-4" />
              Restore
            </Button>
          </ScopedAction>
        </div>
      ) : null}

      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-2">
          <InlineEdit
            label="Name"
            name="name"
            schema={blankableText(INSIGHT_NAME_MAX)}
            value={insight.name ?? ''}
            disabled={!canWrite}
            onSave={(name) => update.mutateAsync({ name })}
          >
            <h1 className="inline-flex items-center gap-2 text-2xl font-semibold wrap-anywhere">
              <KindIcon kind={kind} />
              {title}
            </h1>
          </InlineEdit>
          <InlineEdit
            label="Description"
            name="description"
            schema={blankableText(INSIGHT_LIMITS.descriptionLength)}
            multiline
            value={insight.description ?? ''}
            disabled={!canWrite}
            onSave={(description) => update.mutateAsync({ description })}
          >
            {/* The description's own line breaks stay. */}
            <p className="text-sm whitespace-pre-line text-gray-700 wrap-anywhere dark:text-gray-300">
              {insight.description || (
                <span className="text-gray-600 dark:text-gray-400">{kindLabel(kind)} · no description</span>
              )}
            </p>
          </InlineEdit>
          <TagsEditor
            tags={insight.tags}
            disabled={!canWrite || update.isPending}
            onChange={(tags) => update.mutate({ tags })}
          />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <FavoriteButton
            name={title}
            favorited={insight.favorited}
            onChange={(favorited) => setFavorited({ insight, favorited })}
          />
          <EditInsightLink projectId={projectId} shortId={insight.short_id} />
          <ScopedAction scope={insightEndpoints.sharing.access}>
            <Button onClick={() => setShareOpen(true)}>
              <Share2 aria-hidden="true" className="size-4" />
              Share
            </Button>
          </ScopedAction>
          <ScopedAction scope={insightEndpoints.create.access}>
            <Button onClick={() => void onDuplicate()} disabled={duplicate.isPending}>
              <Copy aria-hidden="true" className="size-4" />
              Duplicate
            </Button>
          </ScopedAction>
          <Button onClick={() => void onDownload()} disabled={downloading}>
            <Download aria-hidden="true" className="size-4" />
            {downloading ? 'Downloading…' : 'Download CSV'}
          </Button>
          {insight.deleted ? null : (
            <ScopedAction scope={insightEndpoints.update.access}>
              <Button variant="danger" onClick={() => void deleteWithUndo(insight, () => void toList())}>
                <Trash2 aria-hidden="true" className="size-4" />
                Delete
              </Button>
            </ScopedAction>
          )}
        </div>
      </div>

      <Tabs value={tab} onValueChange={(value) => onTabChange(value as DetailTab)}>
        <TabsList aria-label="Insight">
          <TabsTrigger value="results">Results</TabsTrigger>
          <TabsTrigger value="activity">Activity</TabsTrigger>
        </TabsList>
        <TabsContent value="results" className="space-y-4">
          <QuerySummary filters={insight.filters} />
          <RefreshStatus insight={insight} refreshing={refresh.isPending} onRefresh={() => refresh.mutate()} />
          <InsightResult insight={insight} title={title} actors={actors} />
        </TabsContent>
        <TabsContent value="activity">
          <Suspense fallback={<TableSkeleton columns={2} label="Loading activity" />}>
            <ActivityPanel projectId={projectId} insightId={insightId} />
          </Suspense>
        </TabsContent>
      </Tabs>

      {share === true ? (
        <SharingDialog projectId={projectId} insightId={insightId} title={title} open onOpenChange={setShareOpen} />
      ) : null}
    </div>
  );
}
