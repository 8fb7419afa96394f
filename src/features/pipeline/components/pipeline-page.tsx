import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import type { Plugin } from '@/contract/plugins';
import { EmptyState } from '@/components/feedback/empty-state';
import { DataTable, type Column } from '@/components/list-kit';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { TextField } from '@/components/form-kit/fields';
import { Button } from '@/components/ui/button';
import { formatCount } from '@/lib/numbers';
import { describeError } from '@/lib/error-messages';
import { GROUP_SLUG_LIST, groupHasFullApi, groupLabel, groupTakesSourcePlugins, type GroupSlug } from '../api/pipeline-groups';
import { usePipelineMutations } from '../api/pipeline.mutations';
import { groupEndpoints, pipelineQueries } from '../api/pipeline.queries';
import { notRunnable, PluginIcon, pluginTypeLabel, TagBadge } from './plugin-badges';
import { InstallByUrl } from './install-by-url';
import { RepositoryBrowser } from './repository-browser';

interface PipelinePageProps {
  organizationId: string;
  slug: GroupSlug;
  unusedOnly: boolean;
  onUnusedOnlyChange: (value: boolean) => void;
}

/** One pipeline group: its plugins (name, type, tag, update available), the repository to install from, a new source plugin. */
export function PipelinePage({ organizationId, slug, unusedOnly, onUnusedOnlyChange }: PipelinePageProps) {
  const { data } = useSuspenseQuery(pipelineQueries.list(organizationId, slug));
  const unused = useQuery(pipelineQueries.unused(organizationId, slug));
  const full = groupHasFullApi(slug);
  const shown = unusedOnly && unused.data ? data.results.filter((p) => unused.data.includes(p.id)) : data.results;
  const label = groupLabel(slug);
  const ownPlugins = groupTakesSourcePlugins(slug);
  const columns = useMemo(() => pluginColumns(organizationId, slug), [organizationId, slug]);
  return (
    <div className="space-y-8">
      <GroupNav organizationId={organizationId} current={slug} />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{label}</h1>
          <p className="text-sm text-gray-700 dark:text-gray-300">Pipeline apps of this organization, enabled per project.</p>
        </div>
        {full ? (
          <label className="inline-flex items-center gap-2 text-sm">
            <input type="checkbox" checked={unusedOnly} onChange={(event) => onUnusedOnlyChange(event.target.checked)} className="size-4" />
            Only apps enabled in no project
          </label>
        ) : null}
      </header>
      <section aria-labelledby="installed-heading" className="space-y-3">
        <h2 id="installed-heading" className="text-lg font-semibold">Installed</h2>
        {shown.length === 0 ? (
          <EmptyState title={unusedOnly ? 'Every app here is enabled somewhere' : `No ${label.toLowerCase()} yet`}>
            {full ? 'Install one from the repository below' : 'Install one by its repository URL below'}{ownPlugins ? ', or write your own.' : '.'}
          </EmptyState>
        ) : (
          <DataTable caption={`Installed ${label.toLowerCase()}`} rows={shown} columns={columns} getRowId={pluginRowId} />
        )}
      </section>
      {full ? <RepositoryBrowser organizationId={organizationId} slug={slug} installed={data.results} /> : <InstallByUrl organizationId={organizationId} slug={slug} />}
      {ownPlugins ? <NewSourcePlugin organizationId={organizationId} slug={slug} /> : null}
    </div>
  );
}

const pluginRowId = (plugin: Plugin) => String(plugin.id);

/** The list's columns: the icon (its header for screen readers only), name, type, version, and a destination's deliveries. */
function pluginColumns(organizationId: string, slug: GroupSlug): Column<Plugin>[] {
  const columns: Column<Plugin>[] = [
    { header: 'Icon', hideHeader: true, className: 'w-14 pr-0', cell: (plugin) => <PluginIcon plugin={plugin} /> },
    {
      header: 'Name',
      className: 'max-w-sm break-words',
      cell: (plugin) => {
        const problem = notRunnable(plugin);
        return (
          <>
            <Link
              to="/organizations/$organizationId/pipeline/$group/$pluginId"
              params={{ organizationId, group: slug, pluginId: plugin.id }}
              className="font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
            >
              {plugin.name}
            </Link>
            {problem ? <span className="block text-xs text-amber-800 dark:text-amber-300">Not runnable: {problem}</span> : null}
          </>
        );
      },
    },
    { header: 'Type', cell: (plugin) => pluginTypeLabel(plugin.plugin_type) },
    { header: 'Version', cell: (plugin) => <TagBadge plugin={plugin} /> },
  ];
  if (slug !== 'destinations') return columns;
  return [...columns, {
    header: 'Delivered / failed',
    className: 'text-right tabular-nums',
    headerClassName: 'text-right',
    cell: (plugin) => {
      const metrics = plugin.metrics as { delivered?: number; failed?: number } | null;
      return `${formatCount(metrics?.delivered ?? 0)} / ${formatCount(metrics?.failed ?? 0)}`;
    },
  }];
}

function NewSourcePlugin({ organizationId, slug }: { organizationId: string; slug: GroupSlug }) {
  const { create } = usePipelineMutations(organizationId, slug);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    create.mutate({ plugin_type: 'source', name: name.trim() }, {
      onSuccess: (plugin) => {
        toast.success(`“${plugin.name}” created: edit its source from its page`);
        setName('');
      },
      onError: (e) => setError(describeError(e)),
    });
  };
  return (
    <section aria-labelledby="new-source-heading" className="space-y-3">
      <h2 id="new-source-heading" className="text-lg font-semibold">Write your own</h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <TextField label="Name of the new source plugin" value={name} onChange={(event) => setName(event.target.value)} error={error} required className="w-72" />
        <ScopedAction scope={groupEndpoints(slug).create.access}>
          <Button type="submit" disabled={create.isPending || name.trim() === ''}>Create source plugin</Button>
        </ScopedAction>
      </form>
    </section>
  );
}

/** The three groups, as links (the sidebar has one entry for them). */
function GroupNav({ organizationId, current }: { organizationId: string; current: GroupSlug }) {
  return (
    <nav aria-label="Pipeline groups">
      <ul className="flex flex-wrap gap-2">
        {GROUP_SLUG_LIST.map((slug) => (
          <li key={slug}>
            <Link to="/organizations/$organizationId/pipeline/$group" params={{ organizationId, group: slug }}
              aria-current={slug === current ? 'page' : undefined}
              className={`rounded-md px-3 py-1.5 text-sm ${slug === current ? 'bg-indigo-100 font-medium text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100' : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800'}`}>
              {groupLabel(slug)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
