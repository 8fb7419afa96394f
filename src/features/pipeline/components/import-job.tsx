import { toast } from '@/lib/toast';
import { pluginConfigEndpoints, type PluginConfig, type PluginJobRun } from '@/contract/plugin-configs';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/dates';
import { describeError } from '@/lib/error-messages';
import { formatCount } from '@/lib/numbers';
import type { GroupSlug } from '../api/pipeline-groups';
import { useConfigMutations } from '../api/pipeline.mutations';

const rows = (job: PluginJobRun) =>
  `${formatCount(job.rows_imported)} rows imported, ${formatCount(job.rows_failed)} skipped`;

/** The job's state in words: running (its counts shown apart), or how the last run ended. */
function jobSummary(job: PluginJobRun | null | undefined): string {
  if (!job) return 'Never run.';
  if (job.status === 'running') return `Importing since ${formatDateTime(job.started_at)}.`;
  if (job.status === 'failed') return `Last run failed${job.error ? `: ${job.error}` : ''} (${rows(job)}).`;
  return `Last run completed: ${rows(job)}.`;
}

/**
 * An import app's job in one project: Start import, and its progress while it runs (the
 * config is polled every second then; see pipelineQueries.config).
 */
export function ImportJob({
  group,
  projectId,
  config,
}: {
  group: { organizationId: string; slug: GroupSlug };
  projectId: number;
  config: PluginConfig;
}) {
  const { startJob } = useConfigMutations(projectId, group);
  const running = config.last_job?.status === 'running';
  return (
    <div className="space-y-2 text-sm">
      <h3 className="font-medium">Import job</h3>
      {/* announced when the job starts and ends, not at each count while it runs */}
      <p role="status">{jobSummary(config.last_job)}</p>
      {running ? <p>{rows(config.last_job!)} so far.</p> : null}
      <ScopedAction scope={pluginConfigEndpoints.job.access}>
        <Button
          disabled={startJob.isPending || running}
          onClick={() =>
            startJob.mutate(config.id, {
              onSuccess: () => toast.success('Import started'),
              onError: (e) => toast.error(describeError(e)),
            })
          }
        >
          {running ? 'Importing…' : 'Start import'}
        </Button>
      </ScopedAction>
    </div>
  );
}
