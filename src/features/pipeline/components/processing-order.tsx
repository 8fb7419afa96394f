import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { Suspense, useState, type ReactNode } from 'react';
import type { PluginConfig } from '@/contract/plugin-configs';
import { EmptyState } from '@/components/feedback/empty-state';
import { SectionBoundary } from '@/components/feedback/section-boundary';
import { SelectField } from '@/components/form-kit/fields';
import { SortableItem, SortableList } from '@/components/sortable/sortable-list';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/error-messages';
import { GROUP_SLUGS, type GroupSlug } from '../api/pipeline-groups';
import { useOrderMutation } from '../api/pipeline.mutations';
import { pipelineQueries } from '../api/pipeline.queries';
import { PluginIcon } from './plugin-badges';

interface ProcessingOrderProps {
  organizationId: string;
  slug: GroupSlug;
  /** The project whose order is shown (from the URL; default: the organization's first). */
  projectId: number | undefined;
  onProjectChange: (projectId: number) => void;
}

/** The order a project's apps of the group run in (each config's `order`), rearranged by drag, keyboard or the move buttons. */
export function ProcessingOrder(props: ProcessingOrderProps) {
  return (
    <section aria-labelledby="order-heading" className="space-y-3">
      <h2 id="order-heading" className="text-lg font-semibold">
        Processing order
      </h2>
      <SectionBoundary what="The processing order">
        <Suspense fallback={<OrderSkeleton />}>
          <ProjectOrder {...props} />
        </Suspense>
      </SectionBoundary>
    </section>
  );
}

function OrderSkeleton() {
  return (
    <div role="status" aria-label="Loading the processing order" className="space-y-2">
      <Skeleton className="h-9 w-64" />
      <Skeleton className="h-12 w-full" />
      <Skeleton className="h-12 w-full" />
    </div>
  );
}

function ProjectOrder({ organizationId, slug, projectId, onProjectChange }: ProcessingOrderProps) {
  const { data: projects } = useSuspenseQuery(pipelineQueries.projects(organizationId));
  const project = projects.find((p) => p.id === projectId) ?? projects[0];
  if (!project) return <p className="text-sm">This organization has no project to enable apps in.</p>;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="max-w-prose text-sm text-gray-700 dark:text-gray-300">
          Each batch of a project’s events goes to its enabled destinations in this order, first to last.
        </p>
        <SelectField
          label="Project"
          value={String(project.id)}
          onChange={(e) => onProjectChange(Number(e.target.value))}
          className="w-64 max-w-full"
        >
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
      </div>
      {/* Keyed: another project starts with its own saved order, and its own failure state. */}
      <Suspense key={project.id} fallback={<OrderSkeleton />}>
        <OrderList organizationId={organizationId} slug={slug} projectId={project.id} projectName={project.name} />
      </Suspense>
    </div>
  );
}

const nameOfConfig = (config: PluginConfig | undefined) => config?.plugin_info?.name ?? 'this app';

function OrderList({
  organizationId,
  slug,
  projectId,
  projectName,
}: {
  organizationId: string;
  slug: GroupSlug;
  projectId: number;
  projectName: string;
}) {
  const { data } = useSuspenseQuery(pipelineQueries.order(projectId));
  const save = useOrderMutation(projectId);
  const saved = data.results.filter((c) => c.plugin_info?.group === GROUP_SLUGS[slug]);
  const byId = new Map(saved.map((c) => [String(c.id), c]));
  // The order asked for until the server has it: kept on screen when saving fails, so Try again sends it again.
  const [wanted, setWanted] = useState<string[] | null>(null);
  const savedIds = saved.map((c) => String(c.id));
  const ids = wanted
    ? [...wanted.filter((id) => byId.has(id)), ...savedIds.filter((id) => !wanted.includes(id))]
    : savedIds;

  const send = (next: string[]) => {
    setWanted(next);
    save.mutate(
      next.map((id) => byId.get(id)!),
      { onSuccess: () => setWanted(null) },
    );
  };
  const move = (from: number, to: number) => {
    // One save at a time: a move while one is on its way is ignored (the list shows where things stand).
    if (save.isPending || to < 0 || to >= ids.length || from === to) return;
    const next = [...ids];
    next.splice(to, 0, ...next.splice(from, 1));
    send(next);
  };

  // An app installed twice has one name twice: its controls then say which (by position).
  const names = ids.map((id) => nameOfConfig(byId.get(id)));
  const label = (index: number) =>
    names.filter((n) => n === names[index]).length > 1 ? `${names[index]} at position ${index + 1}` : names[index]!;

  if (ids.length === 0) {
    return (
      <EmptyState title={`No destination is set up in ${projectName}`}>
        Enable one from its page: it joins the end of the order.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-2">
      <SortableList
        ids={ids}
        onMove={move}
        nameOf={(id) => nameOfConfig(byId.get(id))}
        noun="destination"
        label={`Processing order in ${projectName}`}
        className="space-y-2"
      >
        {ids.map((id, index) => {
          const config = byId.get(id)!;
          const name = names[index]!;
          return (
            <SortableItem
              key={id}
              id={id}
              handleLabel={`Reorder ${label(index)}`}
              draggingClassName="relative z-10 shadow-lg"
              className="flex items-center gap-2 rounded-lg border border-gray-200 bg-white p-2 dark:border-gray-700 dark:bg-gray-950"
            >
              {(handle) => (
                <>
                  {handle}
                  <span
                    aria-hidden
                    className="w-6 shrink-0 text-center text-sm font-semibold tabular-nums text-gray-600 dark:text-gray-400"
                  >
                    {index + 1}
                  </span>
                  <PluginIcon plugin={{ name, icon: config.plugin_info?.icon ?? null }} />
                  <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1">
                    <Link
                      to="/organizations/$organizationId/pipeline/$group/$pluginId"
                      params={{ organizationId, group: slug, pluginId: config.plugin }}
                      search={{ project: projectId }}
                      className="min-w-0 font-medium wrap-anywhere text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
                    >
                      {name}
                    </Link>
                    {config.enabled ? <Badge tone="success">Enabled</Badge> : <Badge>Disabled</Badge>}
                  </div>
                  <MoveButton
                    label={`Move ${label(index)} up`}
                    disabled={index === 0}
                    busy={save.isPending}
                    onClick={() => move(index, index - 1)}
                  >
                    <ArrowUp aria-hidden className="size-4" />
                  </MoveButton>
                  <MoveButton
                    label={`Move ${label(index)} down`}
                    disabled={index === ids.length - 1}
                    busy={save.isPending}
                    onClick={() => move(index, index + 1)}
                  >
                    <ArrowDown aria-hidden className="size-4" />
                  </MoveButton>
                </>
              )}
            </SortableItem>
          );
        })}
      </SortableList>
      <OrderStatus
        state={save.isPending ? 'saving' : save.isError && wanted ? 'failed' : save.isSuccess ? 'saved' : 'idle'}
        error={save.error}
        onRetry={() => wanted && send(wanted)}
        onRevert={() => {
          save.reset();
          setWanted(null);
        }}
      />
    </div>
  );
}

/** Up or down: stays focusable while a save runs (a disabled button would drop the keyboard's focus). */
function MoveButton({
  label,
  disabled,
  busy,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  busy: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-label={label}
      title={label}
      disabled={disabled}
      aria-disabled={busy || undefined}
      onClick={onClick}
      className="w-8 shrink-0 px-0"
    >
      {children}
    </Button>
  );
}

function OrderStatus({
  state,
  error,
  onRetry,
  onRevert,
}: {
  state: 'idle' | 'saving' | 'saved' | 'failed';
  error: unknown;
  onRetry: () => void;
  onRevert: () => void;
}) {
  return (
    <div className="flex min-h-8 flex-wrap items-center gap-2 text-sm">
      {/* Always in the page, so what it says next is announced. */}
      <p
        role="status"
        className={state === 'failed' ? 'text-red-700 dark:text-red-300' : 'text-gray-700 dark:text-gray-300'}
      >
        {state === 'saving'
          ? 'Saving the order…'
          : state === 'saved'
            ? 'Order saved.'
            : state === 'failed'
              ? `The order was not saved: ${describeError(error)}`
              : ''}
      </p>
      {state === 'failed' ? (
        <>
          <Button size="sm" onClick={onRetry}>
            Try again
          </Button>
          <Button size="sm" variant="ghost" onClick={onRevert}>
            Put back the saved order
          </Button>
        </>
      ) : null}
    </div>
  );
}
