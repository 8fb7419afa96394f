import { useSuspenseQuery } from '@tanstack/react-query';
import type { ActivityLogEntry } from '@/contract/insights';
import { RelativeTime } from '@/components/ui/relative-time';
import { ACTIVITY_PAGE_SIZE, insightQueries } from '../api/insights.queries';

const FIELD_NAMES: Record<string, string> = {
  name: 'name',
  description: 'description',
  tags: 'tags',
  favorited: 'favorite',
  filters: 'filters',
  query: 'query',
  deleted: 'deleted',
  saved: 'saved',
};

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'nothing';
  if (Array.isArray(value)) return value.length === 0 ? 'no tags' : value.map(String).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return 'a new value';
  return `“${String(value)}”`;
}

type Change = NonNullable<NonNullable<ActivityLogEntry['detail']>['changes']>[number];

function changeText(change: Change): string {
  const field = change.field ?? '';
  if (field === 'favorited') return change.after === true ? 'added it to favorites' : 'removed it from favorites';
  if (field === 'filters' || field === 'query') return `changed the ${FIELD_NAMES[field]}`;
  const name = FIELD_NAMES[field] ?? field.replaceAll('_', ' ');
  return `changed the ${name} from ${valueText(change.before)} to ${valueText(change.after)}`;
}

/** One log entry in words: "Demo Admin changed the name from “A” to “B”". */
export function activityText(entry: ActivityLogEntry): string {
  const who = entry.user?.first_name || entry.user?.email || 'Someone';
  switch (entry.activity) {
    case 'created':
      return `${who} created the insight`;
    case 'deleted':
      return `${who} deleted the insight`;
    case 'restored':
      return `${who} restored the insight`;
    case 'shared':
      return `${who} shared the insight`;
    case 'unshared':
      return `${who} stopped sharing the insight`;
    case 'updated': {
      const changes = entry.detail?.changes ?? [];
      return changes.length > 0 ? `${who} ${changes.map(changeText).join('; ')}` : `${who} updated the insight`;
    }
    default:
      return `${who}: ${entry.activity.replaceAll('_', ' ')}`;
  }
}

/** What happened to the insight, newest first. */
export function ActivityPanel({ projectId, insightId }: { projectId: number; insightId: number }) {
  const { data } = useSuspenseQuery(
    insightQueries.activity(projectId, insightId, { limit: ACTIVITY_PAGE_SIZE, offset: 0 }),
  );
  if (data.results.length === 0) return <p className="text-sm text-gray-700 dark:text-gray-300">No activity yet.</p>;
  const total = data.count ?? data.total_count;
  return (
    <div className="space-y-2">
      <ol className="divide-y divide-gray-200 rounded-lg border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
        {data.results.map((entry, index) => (
          <li key={index} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-2.5 text-sm">
            <span className="break-words">{activityText(entry)}</span>
            <RelativeTime value={entry.created_at} className="text-gray-600 dark:text-gray-400" />
          </li>
        ))}
      </ol>
      {total !== undefined && total > data.results.length ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">
          The {data.results.length} latest of {total} changes.
        </p>
      ) : null}
    </div>
  );
}
