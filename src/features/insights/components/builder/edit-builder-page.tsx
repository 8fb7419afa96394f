import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useId, useMemo, useState } from 'react';
import { toast } from '@/lib/toast';
import { insightEndpoints, INSIGHT_NAME_MAX, type Insight } from '@/contract/insights';
import { LeaveGuard } from '@/components/feedback/leave-guard';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button, buttonClasses } from '@/components/ui/button';
import { describeError } from '@/lib/error-messages';
import { insightTitle } from '../../api/insight-title';
import { useUpdateInsight } from '../../api/insights.mutations';
import { insightQueries } from '../../api/insights.queries';
import { insightKind } from '../insight-kind';
import { BuilderLayout } from './builder-layout';
import { editBuilderRoute } from './builder-routes';
import { useAddressedInsightId } from '../detail-route';
import type { BuilderKind, BuilderParams } from './builder-search';
import { BUILDER_KIND_OF, filtersOf, readBuilderState, sameState } from './builder-state';
import { withoutUndefined } from './common-controls';
import { inputClasses } from './field-parts';
import { SaveDialog } from './save-dialog';
import { useCreateAndOpen } from './use-create-and-open';

/** A saved insight in its builder: the URL holds edits until "Save" (PATCH) or "Save as new" (a copy). */
export function EditBuilderPage() {
  const { projectId, insightId: address } = editBuilderRoute.useParams();
  const insightId = useAddressedInsightId(projectId, address);
  const { data: insight } = useSuspenseQuery(insightQueries.detail(projectId, insightId));
  const kind = BUILDER_KIND_OF[insightKind(insight)];
  return <EditBuilder key={`${insightId}:${kind}`} kind={kind} projectId={projectId} insight={insight} />;
}

function EditBuilder<K extends BuilderKind>({
  kind,
  projectId,
  insight,
}: {
  kind: K;
  projectId: number;
  insight: Insight;
}) {
  const id = useId();
  const search = editBuilderRoute.useSearch();
  const navigate = editBuilderRoute.useNavigate();
  const saved = useMemo(() => readBuilderState(kind, insight.filters), [kind, insight.filters]);
  const urlState = useMemo(
    () => (Object.keys(search).length > 0 ? readBuilderState(kind, search as Record<string, unknown>) : saved),
    [kind, search, saved],
  );
  const commit = useCallback(
    // An edit is a new URL, not a new page: the reader stays where they are in the controls.
    (next: BuilderParams[K]) => void navigate({ search: withoutUndefined(next) as never, resetScroll: false }),
    [navigate],
  );
  const update = useUpdateInsight(projectId, insight.id);
  const createAndOpen = useCreateAndOpen(projectId);
  const [name, setName] = useState(insight.name ?? '');
  const [description, setDescription] = useState(insight.description ?? '');
  const [copying, setCopying] = useState(false);
  const title = insightTitle(insight);

  return (
    <BuilderLayout
      kind={kind}
      projectId={projectId}
      urlState={urlState}
      commit={commit}
      title={name.trim() || title}
      header={({ state, valid }) => {
        const dirty =
          !sameState(state, saved) || name !== (insight.name ?? '') || description !== (insight.description ?? '');
        const save = async () => {
          try {
            const updated = await update.mutateAsync({
              filters: filtersOf(kind, state),
              name: name.trim(),
              description: description.trim() || null,
            });
            toast.success(`Saved “${insightTitle(updated)}”`);
            setName(updated.name ?? '');
            setDescription(updated.description ?? '');
            void navigate({ search: {}, replace: true });
          } catch (error) {
            toast.error(`Couldn't save “${title}”: ${describeError(error)}`);
          }
        };
        return (
          <div className="space-y-3">
            <h1 className="sr-only">Edit “{title}”</h1>
            <LeaveGuard dirty={dirty} what="this insight" />
            <div className="flex flex-wrap items-end justify-between gap-3">
              <div className="grid w-full min-w-0 gap-3 sm:grid-cols-2 lg:w-auto lg:flex-1">
                <div className="space-y-1.5">
                  <label htmlFor={`${id}-name`} className="block text-sm font-medium">
                    Name
                  </label>
                  <input
                    id={`${id}-name`}
                    className={inputClasses(false, 'text-base font-semibold')}
                    value={name}
                    maxLength={INSIGHT_NAME_MAX}
                    placeholder={insight.derived_name ?? 'Untitled insight'}
                    onChange={(e) => setName(e.target.value)}
                  />
                </div>
                <div className="space-y-1.5">
                  <label htmlFor={`${id}-description`} className="block text-sm font-medium">
                    Description
                  </label>
                  <input
                    id={`${id}-description`}
                    className={inputClasses()}
                    value={description}
                    onChange={(e) => setDescription(e.target.value)}
                  />
                </div>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {dirty ? <span className="text-sm text-amber-800 dark:text-amber-200">Unsaved changes</span> : null}
                <Link
                  to="/projects/$projectId/insights/$insightId"
                  params={{ projectId, insightId: insight.short_id }}
                  search={{}}
                  className={buttonClasses('ghost')}
                >
                  {dirty ? 'Cancel' : 'Done'}
                </Link>
                <ScopedAction scope={insightEndpoints.create.access}>
                  <Button disabled={!valid} onClick={() => setCopying(true)}>
                    Save as new
                  </Button>
                </ScopedAction>
                <ScopedAction scope={insightEndpoints.update.access}>
                  <Button variant="primary" disabled={!valid || !dirty || update.isPending} onClick={() => void save()}>
                    {update.isPending ? 'Saving…' : 'Save'}
                  </Button>
                </ScopedAction>
              </div>
            </div>
            <SaveDialog
              open={copying}
              onOpenChange={setCopying}
              title="Save as a new insight"
              submitLabel="Save as new"
              initial={{ name: `${name.trim() || title} (copy)`, description }}
              onSave={async (details) => {
                await createAndOpen({
                  name: details.name,
                  description: details.description || null,
                  filters: filtersOf(kind, state),
                  tags: insight.tags,
                });
                setCopying(false);
              }}
            />
          </div>
        );
      }}
    />
  );
}
