import { useQuery } from '@tanstack/react-query';
import { Table, Td, Th } from '@/components/data-table/table';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/dates';
import { pipelineQueries } from '../api/pipeline.queries';

/** The config's log entries, newest first (deliveries, retries, the plugin's console, jobs). */
export function LogsPanel({ projectId, configId }: { projectId: number; configId: number }) {
  const { data } = useQuery(pipelineQueries.logs(projectId, configId));
  if (!data) return <p className="text-sm">Loading logs…</p>;
  if (data.results.length === 0) return <p className="text-sm">Nothing logged yet.</p>;
  return (
    <Table caption="Log entries, newest first">
      <thead>
        <tr>
          <Th>Time</Th>
          <Th>Level</Th>
          <Th>Message</Th>
        </tr>
      </thead>
      <tbody>
        {data.results.map((entry) => (
          <tr key={entry.id}>
            <Td className="whitespace-nowrap">{formatDateTime(entry.timestamp)}</Td>
            <Td>
              <Badge tone={entry.level === 'ERROR' ? 'danger' : entry.level === 'WARN' ? 'warning' : 'neutral'}>
                {entry.level}
              </Badge>
            </Td>
            {/* A long URL in a message breaks anywhere rather than widen the table past its column. */}
            <Td className="min-w-48 wrap-anywhere">{entry.message}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
