import { useQuery } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { describeError } from '@/lib/error-messages';
import type { GroupSlug } from '../api/pipeline-groups';
import { usePipelineMutations } from '../api/pipeline.mutations';
import { groupEndpoints, pipelineQueries } from '../api/pipeline.queries';
import { PluginIcon } from './plugin-badges';

/** The server's catalogue for this group, each entry installable by its URL. */
export function RepositoryBrowser({ organizationId, slug }: { organizationId: string; slug: GroupSlug }) {
  const { data, error } = useQuery(pipelineQueries.repository(organizationId, slug));
  const { create } = usePipelineMutations(organizationId, slug);
  const install = (url: string, name: string) =>
    create.mutate(
      { plugin_type: 'repository', url },
      {
        onSuccess: () => toast.success(`“${name}” installed`),
        onError: (e) => toast.error(describeError(e)),
      },
    );
  return (
    <section aria-labelledby="repository-heading" className="space-y-3">
      <h2 id="repository-heading" className="text-lg font-semibold">
        Repository
      </h2>
      {error ? <p role="alert">The repository could not be loaded: {describeError(error)}</p> : null}
      <ul className="grid gap-3 sm:grid-cols-2">
        {(data ?? []).map((entry) => (
          <li
            key={entry.url}
            className="flex items-start gap-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800"
          >
            <PluginIcon plugin={entry} />
            <div className="min-w-0 flex-1 space-y-1">
              <h3 className="font-medium">{entry.name}</h3>
              <p className="text-sm text-gray-700 dark:text-gray-300">{entry.description}</p>
              <p className="text-xs text-gray-600 dark:text-gray-400">Version {entry.latest_tag}</p>
            </div>
            <ScopedAction scope={groupEndpoints(slug).create.access}>
              <Button
                size="sm"
                onClick={() => install(entry.url, entry.name)}
                disabled={create.isPending}
                aria-label={`Install ${entry.name}`}
              >
                Install
              </Button>
            </ScopedAction>
          </li>
        ))}
      </ul>
    </section>
  );
}
