import { useCallback, useMemo, useState } from 'react';
import { insightEndpoints } from '@/contract/insights';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { BuilderLayout } from './builder-layout';
import { newBuilderRoute } from './builder-routes';
import type { BuilderKind, BuilderParams } from './builder-search';
import { filtersOf, readBuilderState } from './builder-state';
import { withoutUndefined } from './common-controls';
import { KIND_WORDS, KindNav } from './kind-nav';
import { SaveDialog } from './save-dialog';
import { useCreateAndOpen } from './use-create-and-open';

/** A new insight's builder: the state in the URL, "Save" names it and opens its edit URL. */
function NewBuilder<K extends BuilderKind>({ kind }: { kind: K }) {
  const route = newBuilderRoute;
  const { projectId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const urlState = useMemo(() => readBuilderState(kind, search as Record<string, unknown>), [kind, search]);
  const commit = useCallback(
    // An edit is a new URL, not a new page: the reader stays where they are in the controls.
    (next: BuilderParams[K]) => void navigate({ search: withoutUndefined(next) as never, resetScroll: false }),
    [navigate],
  );
  const createAndOpen = useCreateAndOpen(projectId);
  const [saving, setSaving] = useState(false);
  const words = KIND_WORDS[kind];

  return (
    <BuilderLayout
      kind={kind}
      projectId={projectId}
      urlState={urlState}
      commit={commit}
      title={words.title}
      header={({ state, valid }) => (
        <div className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h1 className="text-2xl font-semibold">{words.title}</h1>
            <ScopedAction scope={insightEndpoints.create.access}>
              <Button variant="primary" disabled={!valid} onClick={() => setSaving(true)}>
                Save
              </Button>
            </ScopedAction>
          </div>
          <KindNav kind={kind} projectId={projectId} />
          <SaveDialog
            open={saving}
            onOpenChange={setSaving}
            title="Save insight"
            submitLabel="Save"
            initial={{ name: '', description: '' }}
            onSave={async ({ name, description }) => {
              await createAndOpen({ name, description: description || null, filters: filtersOf(kind, state) });
              setSaving(false);
            }}
          />
        </div>
      )}
    />
  );
}

/** The route's page: the builder of the URL's kind (a new kind starts with its own state). */
export function NewBuilderPage() {
  const { kind } = newBuilderRoute.useParams();
  return <NewBuilder key={kind} kind={kind as BuilderKind} />;
}
