import { insightEndpoints } from '@/contract/insights';
import { apiFetch } from '@/lib/api-client';

/** Downloads the insight's result rows as CSV (`GET :id/?format=csv`), named as the server names it. */
export async function downloadInsightCsv(projectId: number, insightId: number): Promise<void> {
  const { response } = await apiFetch(
    insightEndpoints.retrieve,
    { params: { project_id: projectId, id: insightId }, query: { format: 'csv' } },
    'text/csv',
  );
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `insight-${insightId}.csv`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
