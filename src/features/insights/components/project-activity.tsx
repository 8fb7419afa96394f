import { useQuery } from '@tanstack/react-query';
import type { TrendParamsInput } from '@/contract/analytics-params';
import { Skeleton } from '@/components/ui/skeleton';
import { RelativeTime } from '@/components/ui/relative-time';
import { describeError } from '@/lib/error-messages';
import { analysisQuery } from '../api/analysis.queries';
import { definitionQueries } from '../api/definitions.queries';
import { InsightResult } from './insight-result';
import { RecentlyViewed } from './recently-viewed';

const ALL_EVENTS = [{ id: null, type: 'events' as const, order: 0 }];
const RANGES: ReadonlyArray<{ title: string; params: TrendParamsInput }> = [
  {
    title: 'Events, last 24 hours',
    params: { events: ALL_EVENTS, date_from: '-24h', interval: 'hour', display: 'ActionsBar' },
  },
  {
    title: 'Events, last 30 days',
    params: { events: ALL_EVENTS, date_from: '-30d', interval: 'day', display: 'ActionsBar' },
  },
];

function EventsChart({ projectId, title, params }: { projectId: number; title: string; params: TrendParamsInput }) {
  const { data, error, isPending } = useQuery(analysisQuery(projectId, 'trends', params));
  return (
    <section aria-label={title} className="min-w-0 space-y-2">
      <h3 className="text-sm font-medium">{title}</h3>
      {isPending ? (
        <Skeleton className="h-[200px] w-full" />
      ) : error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          Couldn't count the events: {describeError(error)}
        </p>
      ) : (
        <InsightResult
          insight={{
            filters: { insight: 'TRENDS', ...params },
            query: null,
            result: (data as { result: unknown }).result as never,
          }}
          title={title}
          table={false}
        />
      )}
    </section>
  );
}

/** The newest `last_seen_at` of the project's most used events: when data last arrived. */
function LastEvent({ projectId }: { projectId: number }) {
  const { data } = useQuery(definitionQueries.events(projectId, ''));
  if (!data) return null;
  const last = data.results
    .map((d) => d.last_seen_at)
    .filter((t): t is string => !!t)
    .sort()
    .at(-1);
  return (
    <p className="text-sm text-gray-700 dark:text-gray-300">
      {last ? (
        <>
          Last event received <RelativeTime value={last} />.
        </>
      ) : (
        'No event received yet: send one with the snippet below.'
      )}
    </p>
  );
}

/**
 * Whether data arrives, at a glance, for a project's overview: events per hour over the last
 * day and per day over the last 30, when the last one came, and the insights the reader opened
 * last. Each part loads on its own and never holds up the page.
 */
export function ProjectActivity({ projectId }: { projectId: number }) {
  return (
    <div className="space-y-4">
      <LastEvent projectId={projectId} />
      <div className="grid gap-4 lg:grid-cols-2">
        {RANGES.map((r) => (
          <EventsChart key={r.title} projectId={projectId} title={r.title} params={r.params} />
        ))}
      </div>
      <RecentlyViewed projectId={projectId} />
    </div>
  );
}
