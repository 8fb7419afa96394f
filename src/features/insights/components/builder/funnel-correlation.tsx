import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { funnelParamsSchema, orderedEntities, type FunnelParamsInput } from '@/contract/analytics-params';
import { FUNNEL_CORRELATION_LIMITS } from '@/contract/insights';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/error-messages';
import { funnelCorrelationQueries, type FunnelCorrelationRequest } from '../../api/funnel-correlation.queries';
import { CorrelationPropertyChooser } from './funnel-correlation-properties';
import { CorrelationTable } from './funnel-correlation-table';
import { useActorWords } from '../../api/use-actor-words';
import type { ActorWords } from '../../lib/actor-words';

type Mode = 'events' | 'properties';

/**
 * Under a funnel's steps: the events the funnel's persons did (or the values of person
 * properties the user chooses) that most raise or lower conversion, with success and failure
 * counts and the odds ratio, in a table with words ("2.3× more likely to convert").
 */
export function FunnelCorrelation({ projectId, params }: { projectId: number; params: FunnelParamsInput }) {
  const id = useId();
  const [mode, setMode] = useState<Mode>('events');
  const [excluded, setExcluded] = useState<string[]>([]);
  const [names, setNames] = useState<string[]>([]);
  // A heavier query than the funnel's own: computed once asked for, then kept up to date.
  const [shown, setShown] = useState(false);
  const words = useActorWords(projectId, params.aggregation_group_type_index);
  // A funnel by groups correlates events only: person properties do not describe a group.
  const modes = words.groups ? (['events'] as const) : (['events', 'properties'] as const);
  const current: Mode = words.groups ? 'events' : mode;
  const request: FunnelCorrelationRequest =
    current === 'events' ? { type: 'events', excludeEventNames: excluded } : { type: 'properties', names };

  // Only a funnel the server would accept, with two steps or more, has conversions to correlate.
  const ready = useMemo(() => {
    const parsed = funnelParamsSchema.safeParse(params);
    return parsed.success && orderedEntities(parsed.data).length >= 2;
  }, [params]);

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-lg border border-gray-200 p-4 dark:border-gray-800"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id={`${id}-title`} className="text-base font-semibold">
            Correlation analysis
          </h2>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            {words.groups
              ? `What the ${words.many} that converted did more, or less, than those that dropped off.`
              : 'What the persons who converted did (or were) more, or less, than those who dropped off.'}
          </p>
        </div>
        <fieldset className="flex items-center gap-1 rounded-md border border-gray-300 p-1 dark:border-gray-600">
          <legend className="sr-only">Correlate conversion with</legend>
          {modes.map((m) => (
            <label
              key={m}
              className="cursor-pointer rounded px-3 py-1 text-sm has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-indigo-600"
            >
              <input
                type="radio"
                name={`${id}-mode`}
                value={m}
                checked={current === m}
                onChange={() => setMode(m)}
                className="sr-only"
              />
              {m === 'events' ? 'Events' : 'Person properties'}
            </label>
          ))}
        </fieldset>
      </div>

      {current === 'properties' ? (
        <CorrelationPropertyChooser projectId={projectId} value={names} onChange={setNames} />
      ) : null}
      {current === 'events' && excluded.length ? <ExcludedEvents names={excluded} onChange={setExcluded} /> : null}

      {!shown ? (
        <Button onClick={() => setShown(true)}>Show correlations</Button>
      ) : !ready ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Add at least two valid steps to see what correlates with conversion.
        </p>
      ) : current === 'properties' && names.length === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Choose one or more person properties to compare their values.
        </p>
      ) : (
        <CorrelationResult
          projectId={projectId}
          params={params}
          request={request}
          words={words}
          onExclude={
            current === 'events' && excluded.length < FUNNEL_CORRELATION_LIMITS.excluded
              ? (name) => setExcluded([...excluded, name])
              : undefined
          }
        />
      )}
    </section>
  );
}

function ExcludedEvents({ names, onChange }: { names: string[]; onChange: (next: string[]) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-gray-700 dark:text-gray-300">Left out:</span>
      <ul aria-label="Events left out of the analysis" className="flex flex-wrap gap-2">
        {names.map((name) => (
          <li
            key={name}
            className="inline-flex items-center gap-1 rounded-full bg-gray-100 py-0.5 pr-1 pl-3 dark:bg-gray-800"
          >
            {name}
            <button
              type="button"
              aria-label={`Include ${name} again`}
              onClick={() => onChange(names.filter((n) => n !== name))}
              className="rounded-full p-1 hover:bg-gray-200 dark:hover:bg-gray-700"
            >
              <X aria-hidden="true" className="size-3" />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function CorrelationResult({
  projectId,
  params,
  request,
  words,
  onExclude,
}: {
  projectId: number;
  params: FunnelParamsInput;
  request: FunnelCorrelationRequest;
  words: ActorWords;
  onExclude: ((name: string) => void) | undefined;
}) {
  const query = useQuery(funnelCorrelationQueries.result(projectId, params, request));
  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading correlations" className="space-y-2">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </div>
    );
  }
  if (query.isError) {
    return (
      <div
        role="alert"
        className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
      >
        <p>The correlations could not be computed. {describeError(query.error)}</p>
        <Button size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { events, skewed } = query.data.result;
  const noun = request.type === 'events' ? 'Events' : 'Person property values';
  return (
    <div className="space-y-3" aria-busy={query.isFetching || undefined}>
      {skewed ? (
        <p
          role="note"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          Far more {words.many} converted than dropped off (or the other way round): the ratios may mislead.
        </p>
      ) : null}
      {events.length === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {request.type === 'events' ? 'No other events' : 'No values'} make a difference to conversion in this date
          range.
        </p>
      ) : (
        <CorrelationTable
          entries={events}
          type={request.type}
          caption={`${noun} that raise or lower conversion`}
          onExclude={onExclude}
          dim={query.isPlaceholderData}
        />
      )}
    </div>
  );
}
