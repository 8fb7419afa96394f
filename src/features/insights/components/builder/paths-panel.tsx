import { Plus, X } from 'lucide-react';
import { useId } from 'react';
import type { PathParamsInput } from '@/contract/analytics-params';
import { Button } from '@/components/ui/button';
import { CommonControls } from './common-controls';
import { ControlSection, FieldMessage, HogqlField, inputClasses } from './field-parts';
import { NumberField } from './number-field';
import type { ErrorFor, PanelProps } from './panel-types';
import { PathPointField } from './path-point-field';
import { EventPicker } from './pickers/event-picker';

const EVENT_TYPES = [
  { value: '$pageview', label: 'Pageviews' },
  { value: '$screen', label: 'Screens' },
  { value: 'custom_event', label: 'Custom events' },
  { value: 'hogql', label: 'HogQL expression' },
] as const;
type EventType = NonNullable<PathParamsInput['include_event_types']>[number];
type Rule = NonNullable<PathParamsInput['local_path_cleaning_filters']>[number];

/** Paths: what people did step by step, from a start point or towards an end point. */
export function PathsPanel({ projectId, state, onChange, errorFor }: PanelProps<PathParamsInput>) {
  const set = (patch: Partial<PathParamsInput>) => onChange({ ...state, ...patch });
  const types = state.include_event_types ?? [];
  const toggleType = (type: EventType, on: boolean) => {
    const next = on ? [...types, type] : types.filter((t) => t !== type);
    set({ include_event_types: next.length ? next : undefined });
  };
  const excluded = state.exclude_events ?? [];
  const setExcluded = (next: string[]) => set({ exclude_events: next.length ? next : undefined });
  return (
    <>
      <ControlSection title="Paths">
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium">Event types</legend>
          {EVENT_TYPES.map((t) => (
            <label key={t.value} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-indigo-600"
                checked={types.includes(t.value)}
                onChange={(e) => toggleType(t.value, e.target.checked)}
              />
              {t.label}
            </label>
          ))}
          <FieldMessage
            id="paths-types"
            error={errorFor('include_event_types')}
            hint={types.length ? undefined : 'None chosen: every event counts.'}
          />
        </fieldset>
        {types.includes('hogql') ? (
          <HogqlField
            label="Path item (HogQL)"
            value={state.paths_hogql_expression ?? ''}
            error={errorFor('paths_hogql_expression')}
            placeholder="properties.$current_url"
            hint="Each event's path item: any HogQL value, e.g. concat(event, ' ', properties.$browser)."
            onChange={(v) => set({ paths_hogql_expression: v || undefined })}
          />
        ) : null}
        <PathPointField
          projectId={projectId}
          label="Starts at"
          value={state.start_point ?? ''}
          error={errorFor('start_point')}
          onChange={(v) => set({ start_point: v || undefined })}
        />
        <PathPointField
          projectId={projectId}
          label="Ends at"
          value={state.end_point ?? ''}
          error={errorFor('end_point')}
          onChange={(v) => set({ end_point: v || undefined })}
        />
        <NumberField
          label="Steps"
          value={state.step_limit ?? 5}
          min={1}
          max={20}
          error={errorFor('step_limit')}
          onChange={(step_limit) => set({ step_limit })}
        />
      </ControlSection>
      <ControlSection title="Exclude events">
        {excluded.map((name, i) => (
          <div key={i} className="flex items-start gap-2">
            <div className="min-w-0 flex-1">
              <EventPicker
                projectId={projectId}
                label={`Excluded event ${i + 1}`}
                value={name}
                error={errorFor(`exclude_events__${i}`)}
                onChange={(next) => setExcluded(excluded.map((x, j) => (j === i ? (next ?? x) : x)))}
              />
            </div>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove excluded event ${i + 1}`}
              onClick={() => setExcluded(excluded.filter((_, j) => j !== i))}
            >
              <X aria-hidden="true" className="size-4" />
            </Button>
          </div>
        ))}
        <Button size="sm" onClick={() => setExcluded([...excluded, '$pageleave'])}>
          <Plus aria-hidden="true" className="size-4" />
          Exclude an event
        </Button>
      </ControlSection>
      <CleaningRules
        rules={state.local_path_cleaning_filters ?? []}
        errorFor={errorFor}
        onChange={(rules) => set({ local_path_cleaning_filters: rules.length ? rules : undefined })}
      />
      <CommonControls projectId={projectId} state={state} onChange={onChange} errorFor={errorFor} />
    </>
  );
}

/** Path cleaning rules: each regex match in a path item becomes its alias (the regex is checked as it is typed). */
function CleaningRules({
  rules,
  onChange,
  errorFor,
}: {
  rules: Rule[];
  onChange: (rules: Rule[]) => void;
  errorFor: ErrorFor;
}) {
  const id = useId();
  const setRule = (i: number, patch: Partial<Rule>) =>
    onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <ControlSection title="Path cleaning">
      {rules.map((rule, i) => {
        const aliasError = errorFor(`local_path_cleaning_filters__${i}__alias`);
        const regexError = errorFor(`local_path_cleaning_filters__${i}__regex`);
        return (
          <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            <div className="space-y-1">
              <label htmlFor={`${id}-${i}-regex`} className="block text-xs font-medium">
                Rule {i + 1} regex
              </label>
              <input
                id={`${id}-${i}-regex`}
                className={inputClasses(Boolean(regexError), 'font-mono')}
                value={rule.regex}
                aria-invalid={regexError ? true : undefined}
                aria-describedby={regexError ? `${id}-${i}-regex-error` : undefined}
                onChange={(e) => setRule(i, { regex: e.target.value })}
              />
              <FieldMessage id={`${id}-${i}-regex-error`} error={regexError} />
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-${i}-alias`} className="block text-xs font-medium">
                Rule {i + 1} alias
              </label>
              <input
                id={`${id}-${i}-alias`}
                className={inputClasses(Boolean(aliasError))}
                value={rule.alias}
                aria-invalid={aliasError ? true : undefined}
                aria-describedby={aliasError ? `${id}-${i}-alias-error` : undefined}
                onChange={(e) => setRule(i, { alias: e.target.value })}
              />
              <FieldMessage id={`${id}-${i}-alias-error`} error={aliasError} />
            </div>
            <Button
              variant="ghost"
              size="sm"
              className="mt-5"
              aria-label={`Remove rule ${i + 1}`}
              onClick={() => onChange(rules.filter((_, j) => j !== i))}
            >
              <X aria-hidden="true" className="size-4" />
            </Button>
          </div>
        );
      })}
      <Button size="sm" onClick={() => onChange([...rules, { regex: '/\\d+', alias: '/:id' }])}>
        <Plus aria-hidden="true" className="size-4" />
        Add a rule
      </Button>
    </ControlSection>
  );
}
