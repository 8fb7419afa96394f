import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { text } from '@/contract/fields';
import { PLUGIN_NAME_MAX, type Plugin } from '@/contract/plugins';
import { z } from '@/contract/z';
import { ListPage, usePageSearch, type Column } from '@/components/list-kit';
import { formatCount } from '@/lib/numbers';
import {
  GROUP_SLUG_LIST,
  groupHasFullApi,
  groupHasOrder,
  groupLabel,
  groupTakesSourcePlugins,
  type GroupSlug,
} from '../api/pipeline-groups';
import { pipelineQueries } from '../api/pipeline.queries';
import { notRunnable, PluginIcon, pluginTypeLabel, TagBadge } from './plugin-badges';
import { InstallByUrl } from './install-by-url';
import { pipelineHeader } from './pipeline-page-states';
import { PluginCreateForm } from './plugin-create-form';
import { ProcessingOrder } from './processing-order';
import { RepositoryBrowser } from './repository-browser';

interface PipelinePageProps {
  organizationId: string;
  slug: GroupSlug;
  /** The project whose processing order is shown (destinations). */
  projectId: number | undefined;
  onProjectChange: (projectId: number) => void;
}

/**
 * One pipeline group: a page of its plugins (name, type, tag, update available, enabled in no
 * project), the processing order, the repository to install from, a new source plugin.
 */
export function PipelinePage({ organizationId, slug, projectId, onProjectChange }: PipelinePageProps) {
  const { params } = usePageSearch();
  const { data } = useSuspenseQuery(pipelineQueries.list(organizationId, slug, params));
  const unused = useQuery(pipelineQueries.unused(organizationId, slug));
  const full = groupHasFullApi(slug);
  const label = groupLabel(slug);
  const ownPlugins = groupTakesSourcePlugins(slug);
  const unusedIds = unused.data;
  const columns = useMemo(() => pluginColumns(organizationId, slug, unusedIds), [organizationId, slug, unusedIds]);
  return (
    <div className="space-y-8">
      <GroupNav organizationId={organizationId} current={slug} />
      <div>
        <ListPage
          {...pipelineHeader(slug)}
          data={data}
          columns={columns}
          getRowId={pluginRowId}
          empty={{
            title: `No ${label.toLowerCase()} yet`,
            children: `${full ? 'Install one from the repository below' : 'Install one by its repository URL below'}${ownPlugins ? ', or write your own.' : '.'}`,
          }}
        />
      </div>
      {groupHasOrder(slug) ? (
        <ProcessingOrder
          organizationId={organizationId}
          slug={slug}
          projectId={projectId}
          onProjectChange={onProjectChange}
        />
      ) : null}
      {full ? (
        <RepositoryBrowser organizationId={organizationId} slug={slug} />
      ) : (
        <InstallByUrl organizationId={organizationId} slug={slug} />
      )}
      {ownPlugins ? <NewSourcePlugin organizationId={organizationId} slug={slug} /> : null}
    </div>
  );
}

const pluginRowId = (plugin: Plugin) => String(plugin.id);

/**
 * The list's columns: the icon (its header for screen readers only), name (and whether it is
 * enabled in no project, once known), type, version, and a destination's deliveries.
 */
function pluginColumns(
  organizationId: string,
  slug: GroupSlug,
  unused: readonly number[] | undefined,
): Column<Plugin>[] {
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
            {problem ? (
              <span className="block text-xs text-amber-800 dark:text-amber-300">Not runnable: {problem}</span>
            ) : null}
            {unused?.includes(plugin.id) ? (
              <span className="block text-xs text-gray-600 dark:text-gray-400">Enabled in no project</span>
            ) : null}
          </>
        );
      },
    },
    { header: 'Type', cell: (plugin) => pluginTypeLabel(plugin.plugin_type) },
    { header: 'Version', cell: (plugin) => <TagBadge plugin={plugin} /> },
  ];
  if (slug !== 'destinations') return columns;
  return [
    ...columns,
    {
      header: 'Delivered / failed',
      className: 'text-right tabular-nums',
      headerClassName: 'text-right',
      cell: (plugin) => {
        const metrics = plugin.metrics as { delivered?: number; failed?: number } | null;
        return `${formatCount(metrics?.delivered ?? 0)} / ${formatCount(metrics?.failed ?? 0)}`;
      },
    },
  ];
}

// Spaces around the name are not the user's mistake: trimmed before the API's own rules.
const newSourceSchema = z.object({ name: z.pipe(z.string().check(z.trim()), text(PLUGIN_NAME_MAX)) });

function NewSourcePlugin({ organizationId, slug }: { organizationId: string; slug: GroupSlug }) {
  return (
    <PluginCreateForm
      organizationId={organizationId}
      slug={slug}
      field="name"
      schema={newSourceSchema}
      toBody={(name) => ({ plugin_type: 'source', name })}
      created={(plugin) => `“${plugin.name}” created: edit its source from its page`}
      heading="Write your own"
      headingId="new-source-heading"
      label="Name of the new source plugin"
      className="w-72"
      submitLabel="Create source plugin"
      pendingLabel="Creating…"
    />
  );
}

/** The three groups, as links (the sidebar has one entry for them). */
function GroupNav({ organizationId, current }: { organizationId: string; current: GroupSlug }) {
  return (
    <nav aria-label="Pipeline groups">
      <ul className="flex flex-wrap gap-2">
        {GROUP_SLUG_LIST.map((slug) => (
          <li key={slug}>
            <Link
              to="/organizations/$organizationId/pipeline/$group"
              params={{ organizationId, group: slug }}
              aria-current={slug === current ? 'page' : undefined}
              className={`rounded-md px-3 py-1.5 text-sm ${slug === current ? 'bg-indigo-100 font-medium text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100' : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800'}`}
            >
              {groupLabel(slug)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
