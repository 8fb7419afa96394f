import { useQuery } from '@tanstack/react-query';
import { insightQueries } from '../api/insights.queries';
import { insightTitle } from '../api/insight-title';
import { InsightLink } from './insight-link';

/** The caller's last viewed insights (`my_last_viewed/`), loaded beside the list, never blocking it. */
export function RecentlyViewed({ projectId }: { projectId: number }) {
  const { data, isError } = useQuery(insightQueries.lastViewed(projectId));
  if (isError || !data || data.length === 0) return null;
  return (
    <nav aria-labelledby="recently-viewed" className="mb-6">
      <h2 id="recently-viewed" className="mb-2 text-sm font-semibold text-gray-700 dark:text-gray-300">
        Recently viewed
      </h2>
      <ul className="flex flex-wrap gap-2">
        {data.map((insight) => (
          <li key={insight.id} className="max-w-full min-w-0">
            <InsightLink
              projectId={projectId}
              shortId={insight.short_id}
              title={insightTitle(insight)}
              // A long name ends in "…" on one line (the link's text, its accessible name, stays whole).
              className="inline-block max-w-full truncate rounded-md border border-gray-300 px-2.5 py-1 text-sm hover:bg-gray-50 dark:border-gray-600 dark:hover:bg-gray-800"
            />
          </li>
        ))}
      </ul>
    </nav>
  );
}
