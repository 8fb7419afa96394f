import { useId } from 'react';
import { RETENTION_DEFAULT_ENTITY, RETENTION_PERIODS, type RetentionParamsInput } from '@/contract/analytics-params';
import { AggregationControl } from './aggregation-control';
import { CommonControls } from './common-controls';
import { ControlSection, FieldMessage, inputClasses, selectClasses } from './field-parts';
import { NumberField } from './number-field';
import { usePickerBindings, type PanelProps } from './panel-types';
import { BreakdownControl } from './pickers';
import { EventPicker } from './pickers/event-picker';

type Entity = NonNullable<RetentionParamsInput['target_entity']>;
const entity = (name: string | null): Entity => ({ id: name, name, type: 'events' });
// An entity the state leaves out is the one the API assumes (pageviews); a null id is all events.
const idOf = (e: RetentionParamsInput['target_entity']) =>
  e === undefined ? RETENTION_DEFAULT_ENTITY.id : e.id === undefined || e.id === null ? null : String(e.id);

const TYPES = [
  { value: 'retention_first_time', label: 'First time', hint: 'People count from the first time they did it.' },
  { value: 'retention_recurring', label: 'Recurring', hint: 'Every period they did it starts a cohort.' },
] as const;

/** Retention: who did the first event, and how many came back to do the second, period by period. */
export function RetentionPanel({ projectId, state, onChange, errorFor }: PanelProps<RetentionParamsInput>) {
  const periodId = useId();
  const set = (patch: Partial<RetentionParamsInput>) => onChange({ ...state, ...patch });
  const { patchState, breakdown } = usePickerBindings(state, onChange);
  const type =
    state.retention_type === 'recurring' || state.retention_type === 'retention_recurring'
      ? 'retention_recurring'
      : 'retention_first_time';
  const names = [idOf(state.target_entity), idOf(state.returning_entity)].filter((n): n is string => n !== null);
  return (
    <>
      <ControlSection title="Cohort">
        <div className="space-y-1.5">
          <span className="block text-sm font-medium">First did</span>
          <EventPicker
            projectId={projectId}
            label="First did"
            value={idOf(state.target_entity)}
            error={errorFor('target_entity__id') ?? errorFor('target_entity')}
            onChange={(name) => set({ target_entity: entity(name) })}
          />
        </div>
        <div className="space-y-1.5">
          <span className="block text-sm font-medium">Came back to do</span>
          <EventPicker
            projectId={projectId}
            label="Came back to do"
            value={idOf(state.returning_entity)}
            error={errorFor('returning_entity__id') ?? errorFor('returning_entity')}
            onChange={(name) => set({ returning_entity: entity(name) })}
          />
        </div>
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium">Counting</legend>
          {TYPES.map((t) => (
            <div key={t.value} className="flex items-start gap-2 text-sm">
              <input
                id={`${periodId}-${t.value}`}
                type="radio"
                name={`${periodId}-retention-type`}
                className="mt-0.5 size-4 accent-indigo-600"
                checked={type === t.value}
                onChange={() => set({ retention_type: t.value })}
              />
              <label htmlFor={`${periodId}-${t.value}`}>
                <span className="font-medium">{t.label}</span>{' '}
                <span className="text-gray-600 dark:text-gray-400">{t.hint}</span>
              </label>
            </div>
          ))}
        </fieldset>
        <AggregationControl
          projectId={projectId}
          value={state.aggregation_group_type_index}
          errorFor={errorFor}
          hint="Who comes back: a group returns when any of its events does."
          onChange={(v) => set({ aggregation_group_type_index: v })}
        />
        <div className="flex flex-wrap items-start gap-4">
          <div className="space-y-1.5">
            <label htmlFor={periodId} className="block text-sm font-medium">
              Period
            </label>
            <select
              id={periodId}
              className={selectClasses(Boolean(errorFor('period')))}
              value={String(state.period ?? 'Day')}
              onChange={(e) => set({ period: e.target.value })}
            >
              {RETENTION_PERIODS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </div>
          <NumberField
            label="Number of periods"
            value={state.total_intervals ?? 7}
            min={1}
            max={100}
            error={errorFor('total_intervals')}
            onChange={(total_intervals) => set({ total_intervals })}
          />
        </div>
      </ControlSection>
      <ControlSection title="Dates">
        <div className="space-y-1.5">
          <label htmlFor={`${periodId}-end`} className="block text-sm font-medium">
            Last period ends
          </label>
          <input
            id={`${periodId}-end`}
            type="date"
            className={inputClasses(Boolean(errorFor('date_to')), 'w-44')}
            value={/^\d{4}-\d{2}-\d{2}$/.test(state.date_to ?? '') ? (state.date_to ?? '') : ''}
            aria-describedby={`${periodId}-end-message`}
            onChange={(e) => set({ date_to: e.target.value || undefined })}
          />
          <FieldMessage
            id={`${periodId}-end-message`}
            error={errorFor('date_to')}
            hint="Empty: now. The periods are counted back from here."
          />
        </div>
      </ControlSection>
      <CommonControls
        projectId={projectId}
        state={state}
        onChange={onChange}
        errorFor={errorFor}
        eventNames={names}
        dateRange={false}
      />
      <ControlSection title="Breakdown">
        <BreakdownControl
          projectId={projectId}
          defaultLimit={10}
          errorFor={errorFor}
          value={breakdown}
          onChange={patchState}
        />
      </ControlSection>
    </>
  );
}
