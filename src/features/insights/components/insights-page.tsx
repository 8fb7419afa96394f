import { useSuspenseQuery } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { insightEndpoints, type Insight } from '@/contract/insights';
import { currentUserQuery } from '@/lib/current-user';
import { RelativeTime } from '@/components/ui/relative-time';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { ListPage, usePageSearch, type Column } from '@/components/list-kit';
import { Button } from '@/components/ui/button';
import { useDeleteWithUndo, useSetFavorited, type FavoriteVariables } from '../api/insights.mutations';
import { insightQueries } from '../api/insights.queries';
import { insightTitle } from '../api/insight-title';
import { FavoriteButton } from './favorite-button';
import { insightKind, KindIcon } from './insight-kind';
import { InsightLink } from './insight-link';
import { NewInsightMenu } from './builder/insight-entry-links';
import { InsightsFilters } from './insights-filters';
import { insightsHeader } from './insights-page-states';
import { listRoute } from './list-route';
import { RecentlyViewed } from './recently-viewed';
import { TagList } from './tag-list';
import { useWarmInsightPage } from './use-warm-insight-page';

const personName = (person: Insight['created_by']) =>
  person ? [person.first_name, person.last_name].filter(Boolean).join(' ') || person.email : '—';

function insightColumns(
  projectId: number,
  setFavorited: (variables: FavoriteVariables) => void,
  remove: (insight: Insight) => void,
): Column<Insight>[] {
  return [
    {
      header: 'Favorite',
      hideHeader: true,
      cell: (insight) => (
        <FavoriteButton
          name={insightTitle(insight)}
          favorited={insight.favorited}
          onChange={(favorited) => setFavorited({ insight, favorited })}
        />
      ),
    },
    {
      header: 'Name',
      className: 'max-w-xs break-words',
      cell: (insight) => (
        <span className="inline-flex items-center gap-2">
          <KindIcon kind={insightKind(insight)} />
          <InsightLink
            projectId={projectId}
            shortId={insight.short_id}
            title={insightTitle(insight)}
            className="font-medium"
          />
        </span>
      ),
    },
    {
      header: 'Description',
      className: 'max-w-sm break-words text-gray-700 dark:text-gray-300',
      cell: (insight) => insight.description ?? '',
    },
    { header: 'Tags', cell: (insight) => (insight.tags.length > 0 ? <TagList tags={insight.tags} /> : null) },
    { header: 'Created by', className: 'whitespace-nowrap', cell: (insight) => personName(insight.created_by) },
    {
      header: 'Last modified',
      className: 'whitespace-nowrap',
      cell: (insight) => <RelativeTime value={insight.last_modified_at} />,
    },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (insight) => (
        <ScopedAction scope={insightEndpoints.update.access}>
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Delete ${insightTitle(insight)}`}
            onClick={() => remove(insight)}
          >
            <Trash2 aria-hidden="true" className="size-4" />
          </Button>
        </ScopedAction>
      ),
    },
  ];
}

const insightRowId = (insight: Insight) => String(insight.id);

/** The project's saved insights: search and "favorites only" in the URL, paged by the server. */
export function InsightsPage() {
  const { projectId } = listRoute.useParams();
  const { search, favorited, kind, mine } = listRoute.useSearch();
  const { params } = usePageSearch();
  const { data: me } = useSuspenseQuery(currentUserQuery());
  const { data } = useSuspenseQuery(
    insightQueries.list(projectId, {
      ...params,
      search,
      favorited,
      insight: kind,
      created_by: mine ? me.id : undefined,
    }),
  );
  const { mutate: setFavorited } = useSetFavorited(projectId);
  const deleteWithUndo = useDeleteWithUndo(projectId);
  useWarmInsightPage();
  const columns = useMemo(
    () => insightColumns(projectId, setFavorited, (insight) => void deleteWithUndo(insight)),
    [projectId, setFavorited, deleteWithUndo],
  );
  const filtered = Boolean(search) || Boolean(favorited) || Boolean(kind) || Boolean(mine);

  return (
    <ListPage
      {...insightsHeader}
      action={<NewInsightMenu projectId={projectId} />}
      data={data}
      columns={columns}
      getRowId={insightRowId}
      toolbar={
        <>
          <RecentlyViewed projectId={projectId} />
          <InsightsFilters />
        </>
      }
      empty={
        filtered
          ? { title: 'No insights match', children: 'Try other words, or clear the filters.' }
          : {
              title: 'No insights yet',
              children: 'Saved trends, funnels, retention and paths of this project show up here.',
            }
      }
    />
  );
}
