import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@/lib/dates';
import type { GroupSlug } from '../api/pipeline-groups';
import { pipelineQueries } from '../api/pipeline.queries';

/** What happened to this plugin (installed, updated, enabled, …), from the group's activity log. */
export function ActivityPanel({
  organizationId,
  slug,
  pluginId,
}: {
  organizationId: string;
  slug: GroupSlug;
  pluginId: number;
}) {
  const { data } = useQuery(pipelineQueries.activity(organizationId, slug));
  const entries = (data?.results ?? []).filter((a) => a.item_id === String(pluginId));
  if (!data) return <p className="text-sm">Loading activity…</p>;
  if (entries.length === 0) return <p className="text-sm">No activity yet.</p>;
  return (
    <ol className="space-y-2 text-sm">
      {entries.map((a, i) => (
        <li key={`${a.created_at}-${i}`}>
          <time dateTime={a.created_at} className="text-gray-600 dark:text-gray-400">
            {formatDateTime(a.created_at)}
          </time>{' '}
          <span className="font-medium">{a.user?.first_name ?? 'The system'}</span> {a.activity.replace(/_/g, ' ')}
          {(a.detail?.changes ?? [])
            .filter((c) => c.field && c.field !== 'source')
            .map((c) => (
              <span key={c.field}>
                {' '}
                · {c.field}: {String(c.before ?? '—')} → {String(c.after ?? '—')}
              </span>
            ))}
        </li>
      ))}
    </ol>
  );
}
