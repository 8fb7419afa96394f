import { useQueryClient } from '@tanstack/react-query';
import { useCallback, type ReactNode } from 'react';
import { analysisQuery } from '../../api/analysis.queries';
import type { BuilderKind, BuilderParams } from './builder-search';
import { BuilderResult } from './builder-result';
import { KindPanel } from './kind-panel';
import { useBuilderState } from './use-builder-state';
import { useLiveResult } from './use-live-result';

export interface BuilderHeaderArgs<K extends BuilderKind> {
  /** The controls' state (what Save stores). */
  state: BuilderParams[K];
  /** The contract accepts `state`. */
  valid: boolean;
}

interface BuilderLayoutProps<K extends BuilderKind> {
  kind: K;
  projectId: number;
  /** The state the URL holds (already checked). */
  urlState: BuilderParams[K];
  /** Writes a state to the URL (a new history entry). */
  commit: (next: BuilderParams[K]) => void;
  /** The chart's title (CSV and PNG file names too). */
  title: string;
  header: (args: BuilderHeaderArgs<K>) => ReactNode;
}

/**
 * A builder: its header, the controls column (left) and the live result. On narrower screens the
 * result comes first and stays in view at the top while the controls scroll beneath it (its own
 * table scrolls inside it), so every edit's effect is seen without scrolling back up.
 */
export function BuilderLayout<K extends BuilderKind>({
  kind,
  projectId,
  urlState,
  commit,
  title,
  header,
}: BuilderLayoutProps<K>) {
  const queryClient = useQueryClient();
  // The request leaves with the edit: the URL write and the page's render follow, and the
  // page's query (keyed by the same parameters) finds it already in flight.
  const commitAndFetch = useCallback(
    (next: BuilderParams[K]) => {
      void queryClient.prefetchQuery(analysisQuery(projectId, kind, next));
      commit(next);
    },
    [queryClient, projectId, kind, commit],
  );
  const { state, setState, issues, pending } = useBuilderState(kind, urlState, commitAndFetch);
  const live = useLiveResult(projectId, kind, urlState, issues, pending);
  return (
    <div className="space-y-6">
      {header({ state, valid: issues.size === 0 })}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(20rem,26rem)_minmax(0,1fr)]">
        <form
          aria-label="Insight settings"
          className="space-y-5 rounded-lg border border-gray-200 p-4 dark:border-gray-800"
          onSubmit={(e) => e.preventDefault()}
        >
          <KindPanel kind={kind} projectId={projectId} state={state} onChange={setState} errorFor={live.errorFor} />
        </form>
        <div className="max-lg:sticky max-lg:top-0 max-lg:z-10 max-lg:order-first max-lg:max-h-[55vh] max-lg:overflow-y-auto max-lg:border-b max-lg:border-gray-200 max-lg:bg-white max-lg:pb-3 max-lg:shadow-md max-lg:dark:border-gray-800 max-lg:dark:bg-gray-950">
          <BuilderResult projectId={projectId} kind={kind} title={title} live={live} issues={issues} />
        </div>
      </div>
    </div>
  );
}
