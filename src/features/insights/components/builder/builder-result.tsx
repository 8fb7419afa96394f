import { RotateCcw } from 'lucide-react';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import type { FunnelParamsInput } from '@/contract/analytics-params';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/error-messages';
import type { FunnelPersonsTarget } from '../../api/funnel-persons.queries';
import { InsightResult } from '../insight-result';
import type { BuilderKind } from './builder-search';
import { INSIGHT_KIND_OF } from './builder-state';
import { FunnelCorrelation } from './funnel-correlation';
import { FunnelPersonsPanel } from './funnel-persons-panel';
import type { LiveResult } from './use-live-result';
import { useActorWords } from '../../api/use-actor-words';
import { aggregationIndexOf } from '../result-model';

/** Draws again only when what it shows changed, not on every keystroke in the controls. */
const Chart = memo(InsightResult);

interface BuilderResultProps {
  projectId: number;
  kind: BuilderKind;
  title: string;
  live: LiveResult;
  /** The contract's complaints about the controls' state (shown beside their controls too). */
  issues: ReadonlyMap<string, string>;
}

/**
 * The builder's chart and table: the latest result, dimmed and busy while a newer one loads or
 * while the controls hold a change the chart does not show yet. A refused field is named here
 * too (the control shows the same words); any other failure is said in words with a retry.
 */
export function BuilderResult({ projectId, kind, title, live, issues }: BuilderResultProps) {
  const [persons, setPersons] = useState<FunnelPersonsTarget | null>(null);
  // The chart and its table take far longer to draw than the controls: they follow an edit in a
  // render of their own that the next keystroke may interrupt, so typing never waits for them.
  const chart = useDeferredValue(live);
  const chartTitle = useDeferredValue(title);
  const insight = useMemo(
    () => ({
      filters: { insight: INSIGHT_KIND_OF[kind], ...(chart.resultParams as object) },
      query: null,
      result: chart.result,
    }),
    [kind, chart.resultParams, chart.result],
  );
  const actors = useActorWords(projectId, aggregationIndexOf(insight));
  const funnel = kind === 'funnels' ? (live.resultParams as FunnelParamsInput | undefined) : undefined;
  // Each step's count opens who it counts: persons, or a funnel by groups' groups.
  const listsPersons = funnel !== undefined;
  const fieldProblems = [...issues.values()];
  // The server's refusal was of the last state sent; while the controls hold a state they cannot
  // send, it would speak of an earlier one.
  if (live.fieldError && fieldProblems.length === 0) fieldProblems.push(live.fieldError.detail);
  return (
    <section aria-label="Result" className="min-w-0 space-y-4">
      {fieldProblems.length > 0 ? (
        <div
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-medium">The chart is not updated until this is fixed:</p>
          <ul className="mt-1 list-disc pl-5">
            {fieldProblems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {live.error ? (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          <span>Couldn't compute the result: {describeError(live.error)}</span>
          <Button size="sm" onClick={live.retry}>
            <RotateCcw aria-hidden="true" className="size-4" />
            Try again
          </Button>
        </div>
      ) : null}
      {chart.resultParams !== undefined ? (
        <Chart
          insight={insight}
          title={chartTitle}
          actors={actors}
          stale={!chart.stale ? false : chart.updating ? 'loading' : 'held'}
          downloads
          {...(listsPersons ? { onFunnelPersons: setPersons } : {})}
        />
      ) : live.error ? null : fieldProblems.length > 0 && !live.loading ? (
        // Nothing is computing: the first request was refused, or the controls' state is not sent.
        <p className="flex h-40 items-center justify-center rounded-md border border-dashed border-gray-300 px-4 text-center text-sm text-gray-600 dark:border-gray-700 dark:text-gray-400">
          No chart yet: it is drawn once the settings above are accepted.
        </p>
      ) : (
        <div aria-busy="true" aria-label="Computing the result" className="space-y-4">
          <Skeleton className="h-[320px] w-full" />
          <Skeleton className="h-32 w-full" />
        </div>
      )}
      {funnel ? (
        <>
          <FunnelPersonsPanel projectId={projectId} params={funnel} target={persons} onClose={() => setPersons(null)} />
          {(funnel.funnel_viz_type ?? 'steps') === 'steps' ? (
            <FunnelCorrelation projectId={projectId} params={funnel} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
