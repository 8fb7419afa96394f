import { useSuspenseQuery } from '@tanstack/react-query';
import type { BatchExportLogEntry } from '@/contract/batch-exports';
import { formatDateTime } from '@/lib/dates';
import { Pagination } from '@/components/data-table/pagination';
import { Table, Td, Th } from '@/components/data-table/table';
import { EmptyState } from '@/components/feedback/empty-state';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { pageParams } from '@/lib/page-search';
import { detailRoute } from './detail-route';
import { batchExportQueries, LIVE_REFRESH_MS, LOGS_PAGE_SIZE } from '../api/batch-exports.queries';

const LEVEL_TONES: Record<string, BadgeTone> = {
  ERROR: 'danger',
  WARNING: 'warning',
  INFO: 'info',
  LOG: 'neutral',
  DEBUG: 'neutral',
};

function LevelBadge({ level }: { level: string }) {
  return <Badge tone={LEVEL_TONES[level.toUpperCase()] ?? 'neutral'}>{level}</Badge>;
}

interface LogsPanelProps {
  live: boolean;
  /** Keep refreshing until this time (ms) too: the runs a backfill just queued are writing logs. */
  watchUntil: number;
}

/** The export's log entries, newest first. */
export function LogsPanel({ live, watchUntil }: LogsPanelProps) {
  const { organizationId, batchExportId } = detailRoute.useParams();
  const { logsPage: page } = detailRoute.useSearch();
  const navigate = detailRoute.useNavigate();
  const onPageChange = (next: number) => void navigate({ search: (previous) => ({ ...previous, logsPage: next }) });
  const { data } = useSuspenseQuery({
    ...batchExportQueries.logs(organizationId, batchExportId, pageParams(page, LOGS_PAGE_SIZE)),
    refetchInterval: () => (live || Date.now() < watchUntil ? LIVE_REFRESH_MS : false),
  });
  if (data.count === 0) return <EmptyState title="No log entries yet">Each run writes what it did here.</EmptyState>;
  return (
    <div className="space-y-2">
      <Table caption="Log entries, newest first" keyboardScroll>
        <thead>
          <tr>
            <Th>Time</Th>
            <Th>Level</Th>
            <Th>Message</Th>
            <Th>Run</Th>
          </tr>
        </thead>
        <tbody>
          {data.results.map((entry: BatchExportLogEntry, index) => (
            <tr key={`${entry.timestamp}-${index}`}>
              <Td className="whitespace-nowrap">
                <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
              </Td>
              <Td>
                <LevelBadge level={entry.level} />
              </Td>
              {/* At least 16rem: on a phone the table scrolls sideways rather than squeezing the
                  message into a column of a few letters per line. */}
              <Td className="max-w-xl min-w-64 font-mono text-xs break-words">{entry.message}</Td>
              {/* A run id on one line: broken anywhere in a narrow column it made each row a tower. */}
              <Td className="font-mono text-xs whitespace-nowrap text-gray-600 dark:text-gray-400">
                {entry.run_id ?? '—'}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pagination
        label="Log entries"
        page={page}
        pageSize={LOGS_PAGE_SIZE}
        count={data.count}
        onPageChange={onPageChange}
      />
    </div>
  );
}
