import { useQueryClient } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { ANALYTICS_LIMITS, funnelParamsSchema, type FunnelParamsInput } from '@/contract/analytics-params';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { definitionQueries } from '../../api/definitions.queries';
import { orderedSteps, stepLabel } from './funnel-steps';
import { EventPicker } from './pickers/event-picker';
import { useActorWords } from '../../api/use-actor-words';

type ExclusionInput = NonNullable<FunnelParamsInput['exclusions']>[number];

/** The contract's complaints about the exclusions, by attr (`exclusions__0__funnel_to_step`). */
export function exclusionIssues(state: FunnelParamsInput): Map<string, string> {
  const out = new Map<string, string>();
  const result = funnelParamsSchema.safeParse(state);
  if (result.success) return out;
  for (const issue of result.error.issues) {
    if (issue.path[0] !== 'exclusions') continue;
    const attr = issue.path.map(String).join('__');
    if (!out.has(attr)) out.set(attr, issue.message);
  }
  return out;
}

interface Props {
  projectId: number;
  state: FunnelParamsInput;
  onChange: (next: FunnelParamsInput) => void;
  errorFor: (attr: string) => string | undefined;
}

/**
 * Exclusions: persons who did an event between two steps are left out of the funnel. Each row
 * is the event and the range of steps it applies to; the contract's rules (from before to, to
 * within the steps, whole-funnel only for "Any order", not a step's own event) show at the row
 * as soon as they are broken.
 */
export function FunnelExclusions({ projectId, state, onChange, errorFor }: Props) {
  const actors = useActorWords(projectId, state.aggregation_group_type_index);
  const id = useId();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const steps = orderedSteps(state.events);
  const exclusions = state.exclusions ?? [];
  const issues = useMemo(() => exclusionIssues(state), [state]);
  const errorAt = (i: number, field: string) =>
    errorFor(`exclusions__${i}__${field}`) ?? issues.get(`exclusions__${i}__${field}`);
  const last = Math.max(steps.length - 1, 1);

  const set = (next: ExclusionInput[]) => {
    const out: FunnelParamsInput = { ...state, exclusions: next };
    if (next.length === 0) delete out.exclusions;
    onChange(out);
  };
  const update = (i: number, patch: Partial<ExclusionInput>) =>
    set(exclusions.map((x, k) => (k === i ? { ...x, ...patch } : x)));

  // A new row excludes the project's most used event that is not a step, over the whole funnel.
  const add = async () => {
    setAdding(true);
    const stepIds = new Set(steps.map((s) => String(s.id)));
    let name = '$pageleave';
    try {
      const page = await queryClient.fetchQuery(definitionQueries.events(projectId, ''));
      name = page.results.find((d) => !stepIds.has(d.name))?.name ?? name;
    } catch {
      // The list could not be read: the default stands, and the picker changes it.
    } finally {
      setAdding(false);
    }
    set([...exclusions, { id: name, name, type: 'events', funnel_from_step: 0, funnel_to_step: last }]);
  };

  const select = 'rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-gray-900';
  return (
    <fieldset className="space-y-2">
      <legend className="sr-only">Exclusions</legend>
      <p className="text-sm text-gray-600 dark:text-gray-400">
        Leave out {actors.groups ? `${actors.many} that` : 'persons who'} did an event between two steps.
      </p>
      {exclusions.length ? (
        <ol className="space-y-3">
          {exclusions.map((x, i) => {
            const n = i + 1;
            const fromError = errorAt(i, 'funnel_from_step');
            const toError = errorAt(i, 'funnel_to_step');
            const rowError = fromError ?? toError;
            const errorId = `${id}-${i}-error`;
            return (
              <li key={i} className="space-y-1.5 rounded-md border border-gray-200 p-2 dark:border-gray-800">
                <div className="flex flex-wrap items-start gap-2">
                  <EventPicker
                    projectId={projectId}
                    label={`Exclusion ${n} event`}
                    value={x.id === null ? null : String(x.id)}
                    onChange={(name) => update(i, { id: name, name, type: 'events' })}
                    error={errorAt(i, 'id') ?? errorAt(i, 'type')}
                  />
                  <label className="flex items-center gap-1.5 text-sm">
                    <span>between</span>
                    <select
                      aria-label={`Exclusion ${n}: from step`}
                      aria-invalid={fromError ? true : undefined}
                      aria-describedby={rowError ? errorId : undefined}
                      value={x.funnel_from_step}
                      onChange={(e) => update(i, { funnel_from_step: Number(e.target.value) })}
                      className={cn(
                        select,
                        fromError ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
                      )}
                    >
                      {steps.map((s, k) => (
                        <option key={k} value={k}>
                          {stepLabel(s, k)}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="flex items-center gap-1.5 text-sm">
                    <span>and</span>
                    <select
                      aria-label={`Exclusion ${n}: to step`}
                      aria-invalid={toError ? true : undefined}
                      aria-describedby={rowError ? errorId : undefined}
                      value={x.funnel_to_step}
                      onChange={(e) => update(i, { funnel_to_step: Number(e.target.value) })}
                      className={cn(
                        select,
                        toError ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
                      )}
                    >
                      {steps.map((s, k) => (
                        <option key={k} value={k}>
                          {stepLabel(s, k)}
                        </option>
                      ))}
                      {x.funnel_to_step >= steps.length ? (
                        <option value={x.funnel_to_step}>Step {x.funnel_to_step + 1} (removed)</option>
                      ) : null}
                    </select>
                  </label>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove exclusion ${n}`}
                    onClick={() => set(exclusions.filter((_, k) => k !== i))}
                  >
                    <X aria-hidden="true" className="size-4" />
                  </Button>
                </div>
                {rowError ? (
                  <p id={errorId} className="text-sm text-red-700 dark:text-red-300">
                    {rowError}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      <Button
        size="sm"
        disabled={adding || exclusions.length >= ANALYTICS_LIMITS.exclusions || steps.length < 2}
        onClick={() => void add()}
      >
        <Plus aria-hidden="true" className="size-4" />
        {adding ? 'Adding exclusion…' : 'Add exclusion'}
      </Button>
    </fieldset>
  );
}
