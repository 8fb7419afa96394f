import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import type { PluginConfigField } from '@/contract/plugins';
import { SelectField } from '@/components/form-kit/fields';
import { CopyButton } from '@/components/ui/copy-button';
import { groupEnabledHint, groupHasFullApi, groupLabel, type GroupSlug } from '../api/pipeline-groups';
import { pipelineQueries } from '../api/pipeline.queries';
import { ActivityPanel } from './activity-panel';
import { ConfigForm } from './config-form';
import { ImportJob } from './import-job';
import { LogsPanel } from './logs-panel';
import { MetricsPanel } from './metrics-panel';
import { PluginActions } from './plugin-actions';
import { notRunnable, PluginIcon, pluginTypeLabel, TagBadge } from './plugin-badges';

interface PluginDetailProps {
  organizationId: string;
  slug: GroupSlug;
  pluginId: number;
  /** The project whose config is shown (default: the organization's first). */
  projectId: number | undefined;
  onProjectChange: (projectId: number) => void;
  onDeleted: () => Promise<void>;
}

/** One plugin: what it is, its config per project (enable), metrics, logs and activity. */
export function PluginDetail({
  organizationId,
  slug,
  pluginId,
  projectId,
  onProjectChange,
  onDeleted,
}: PluginDetailProps) {
  const { data: plugin } = useSuspenseQuery(pipelineQueries.detail(organizationId, slug, pluginId));
  const { data: projects } = useSuspenseQuery(pipelineQueries.projects(organizationId));
  const project = projects.find((p) => p.id === projectId) ?? projects[0];
  const problem = notRunnable(plugin);
  return (
    <div className="space-y-8">
      <header className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <PluginIcon plugin={plugin} />
          <h1 className="text-2xl font-semibold">{plugin.name}</h1>
          <TagBadge plugin={plugin} />
        </div>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {groupLabel(slug).replace(/s$/, '')} · {pluginTypeLabel(plugin.plugin_type)}
          {plugin.description ? ` · ${plugin.description}` : ''}
        </p>
        {problem ? (
          <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
            Not runnable: {problem}
          </p>
        ) : null}
        <PluginActions organizationId={organizationId} slug={slug} plugin={plugin} onDeleted={onDeleted} />
      </header>
      {project ? (
        <section aria-labelledby="config-heading" className="space-y-4">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <h2 id="config-heading" className="text-lg font-semibold">
              Configuration
            </h2>
            <SelectField
              label="Project"
              value={String(project.id)}
              onChange={(e) => onProjectChange(Number(e.target.value))}
              className="w-64"
            >
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </SelectField>
          </div>
          <ProjectConfig
            key={`${project.id}`}
            projectId={project.id}
            projectName={project.name}
            pluginId={plugin.id}
            fields={(plugin.config_schema ?? []) as PluginConfigField[]}
            slug={slug}
            organizationId={organizationId}
          />
        </section>
      ) : (
        <p>This organization has no project to enable the app in.</p>
      )}
      {groupHasFullApi(slug) ? (
        <section aria-labelledby="activity-heading" className="space-y-3">
          <h2 id="activity-heading" className="text-lg font-semibold">
            Activity
          </h2>
          <ActivityPanel organizationId={organizationId} slug={slug} pluginId={plugin.id} />
        </section>
      ) : null}
    </div>
  );
}

function ProjectConfig({
  projectId,
  projectName,
  pluginId,
  fields,
  slug,
  organizationId,
}: {
  projectId: number;
  projectName: string;
  pluginId: number;
  fields: PluginConfigField[];
  slug: GroupSlug;
  organizationId: string;
}) {
  const { data: config, isPending } = useQuery(pipelineQueries.config(projectId, pluginId));
  if (isPending) return <p className="text-sm">Loading the configuration…</p>;
  const existing = config ?? null;
  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-2 [&>*]:min-w-0">
      <ConfigForm
        key={existing?.updated_at ?? 'new'}
        group={{ organizationId, slug }}
        projectId={projectId}
        projectName={projectName}
        pluginId={pluginId}
        fields={fields}
        existing={existing}
        enabledHint={groupEnabledHint(slug)}
      />
      <div className="space-y-6">
        {existing?.site_app_url ? (
          <div className="space-y-1 text-sm">
            <h3 className="font-medium">Loaded by web sites from</h3>
            <p className="flex items-center gap-2 break-all">
              <code>{existing.site_app_url}</code>
              <CopyButton value={existing.site_app_url} what="site app URL" />
            </p>
          </div>
        ) : null}
        {slug === 'import-apps' && existing ? (
          <ImportJob group={{ organizationId, slug }} projectId={projectId} config={existing} />
        ) : null}
        {existing?.error ? (
          <p role="status" className="text-sm text-red-700 dark:text-red-300">
            Last error: {existing.error.message}
          </p>
        ) : null}
        {slug === 'destinations' && existing ? (
          <div className="space-y-2">
            <h3 className="font-medium">Metrics</h3>
            <MetricsPanel metrics={existing.metrics} />
          </div>
        ) : null}
        {existing ? (
          <div className="space-y-2">
            <h3 className="font-medium">Logs</h3>
            <LogsPanel projectId={projectId} configId={existing.id} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
