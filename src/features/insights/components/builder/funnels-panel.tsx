import { useId } from 'react';
import {
  FUNNEL_ORDER_TYPES,
  FUNNEL_VIZ_TYPES,
  type EntityInput,
  type FunnelParamsInput,
  type Interval,
} from '@/contract/analytics-params';
import { AggregationControl } from './aggregation-control';
import { CommonControls } from './common-controls';
import { ControlSection, FieldMessage, selectClasses } from './field-parts';
import { FunnelExclusions } from './funnel-exclusions';
import { orderedSteps, stepLabel } from './funnel-steps';
import { FunnelWindowControl } from './funnel-window-control';
import { IntervalControl } from './interval-control';
import { usePickerBindings, type PanelProps } from './panel-types';
import { BreakdownControl, SeriesList } from './pickers';

type OrderType = (typeof FUNNEL_ORDER_TYPES)[number];
type VizType = (typeof FUNNEL_VIZ_TYPES)[number];

export const ORDER_TYPE_LABELS: Record<OrderType, { label: string; hint: string }> = {
  ordered: { label: 'Sequential', hint: 'Steps in this order; other events may happen between them.' },
  strict: { label: 'Strict order', hint: 'Steps in this order, with no other event between them.' },
  unordered: { label: 'Any order', hint: 'All steps, in any order.' },
};

export const VIZ_TYPE_LABELS: Record<VizType, string> = {
  steps: 'Steps',
  trends: 'Conversion over time',
  time_to_convert: 'Time to convert',
};

/**
 * Time to convert between two steps (the first and the last unless chosen): a later "from" or an
 * earlier "to" than the other end are not offered; the first and last leave the URL clean.
 */
function ConversionSteps({
  state,
  steps,
  onChange,
  errorFor,
}: Pick<PanelProps<FunnelParamsInput>, 'state' | 'onChange' | 'errorFor'> & { steps: EntityInput[] }) {
  const id = useId();
  const last = steps.length - 1;
  const from = Math.min(state.funnel_from_step ?? 0, last - 1);
  const to = Math.max(state.funnel_to_step ?? last, from + 1);
  const choose = (key: 'funnel_from_step' | 'funnel_to_step', value: number) =>
    onChange(patch(state, key, value === (key === 'funnel_from_step' ? 0 : last) ? undefined : value));
  const select = (
    key: 'funnel_from_step' | 'funnel_to_step',
    label: string,
    value: number,
    allowed: (i: number) => boolean,
  ) => (
    <div className="space-y-1.5">
      <label htmlFor={`${id}-${key}`} className="block text-sm font-medium">
        {label}
      </label>
      <select
        id={`${id}-${key}`}
        value={value}
        className={selectClasses(Boolean(errorFor(key)), 'w-full')}
        aria-describedby={`${id}-${key}-message`}
        onChange={(e) => choose(key, Number(e.target.value))}
      >
        {steps.map((step, i) => (
          <option key={i} value={i} disabled={!allowed(i)}>
            {stepLabel(step, i)}
          </option>
        ))}
      </select>
      <FieldMessage id={`${id}-${key}-message`} error={errorFor(key)} />
    </div>
  );
  return (
    <div className="grid grid-cols-2 gap-2">
      {select('funnel_from_step', 'Time from step', from, (i) => i < to)}
      {select('funnel_to_step', 'To step', to, (i) => i > from)}
    </div>
  );
}

/** Removes `key` when `value` is undefined (the URL keeps only what is set). */
function patch<K extends keyof FunnelParamsInput>(
  state: FunnelParamsInput,
  key: K,
  value: FunnelParamsInput[K] | undefined,
): FunnelParamsInput {
  const next = { ...state, [key]: value };
  if (value === undefined) delete next[key];
  return next;
}

/**
 * The funnel builder's controls: the steps, the conversion window, the step order, exclusions,
 * breakdown, the graph type, filters, dates and test accounts. It edits the funnel's parameters
 * as the URL holds them (the contract's FunnelParamsInput); the chart follows the URL.
 */
export function FunnelsPanel({ projectId, state, onChange, errorFor }: PanelProps<FunnelParamsInput>) {
  const id = useId();
  const order = (state.funnel_order_type ?? 'ordered') as OrderType;
  const viz = (state.funnel_viz_type ?? 'steps') as VizType;
  const set = <K extends keyof FunnelParamsInput>(key: K, value: FunnelParamsInput[K] | undefined) =>
    onChange(patch(state, key, value));
  const { patchState, setEvents, breakdown } = usePickerBindings(state, onChange);

  const steps = (state.events ?? []) as EntityInput[];
  const eventNames = steps.map((e) => e.id).filter((name): name is string => typeof name === 'string');

  return (
    <>
      <ControlSection title="Steps">
        <SeriesList projectId={projectId} mode="funnel" value={steps} errorFor={errorFor} onChange={setEvents} />
        <div className="space-y-1.5">
          <label htmlFor={`${id}-viz`} className="block text-sm font-medium">
            Graph type
          </label>
          <select
            id={`${id}-viz`}
            value={viz}
            onChange={(e) => set('funnel_viz_type', e.target.value as VizType)}
            className={selectClasses(Boolean(errorFor('funnel_viz_type')), 'w-full')}
          >
            {FUNNEL_VIZ_TYPES.map((v) => (
              <option key={v} value={v}>
                {VIZ_TYPE_LABELS[v]}
              </option>
            ))}
          </select>
        </div>
        {viz === 'time_to_convert' && steps.length > 1 ? (
          <ConversionSteps state={state} steps={orderedSteps(steps)} onChange={onChange} errorFor={errorFor} />
        ) : null}
        <AggregationControl
          projectId={projectId}
          value={state.aggregation_group_type_index}
          errorFor={errorFor}
          hint="Who goes through the steps: a group's events count whoever did them."
          onChange={(v) => set('aggregation_group_type_index', v)}
        />
      </ControlSection>

      <ControlSection title="Conversion">
        <FunnelWindowControl
          state={state}
          onChange={onChange}
          error={
            errorFor('funnel_window_interval') ??
            errorFor('funnel_window_interval_unit') ??
            errorFor('funnel_window_days')
          }
        />
        <div className="space-y-1.5">
          <label htmlFor={`${id}-order`} className="block text-sm font-medium">
            Step order
          </label>
          <select
            id={`${id}-order`}
            value={order}
            aria-describedby={`${id}-order-hint`}
            onChange={(e) => set('funnel_order_type', e.target.value as OrderType)}
            className={selectClasses(Boolean(errorFor('funnel_order_type')), 'w-full')}
          >
            {FUNNEL_ORDER_TYPES.map((o) => (
              <option key={o} value={o}>
                {ORDER_TYPE_LABELS[o].label}
              </option>
            ))}
          </select>
          <FieldMessage
            id={`${id}-order-hint`}
            error={errorFor('funnel_order_type')}
            hint={ORDER_TYPE_LABELS[order].hint}
          />
        </div>
      </ControlSection>

      <ControlSection title="Exclusions">
        <FunnelExclusions projectId={projectId} state={state} onChange={onChange} errorFor={errorFor} />
      </ControlSection>

      <CommonControls
        projectId={projectId}
        state={state}
        onChange={onChange}
        errorFor={errorFor}
        eventNames={eventNames}
      >
        {viz === 'trends' ? (
          <IntervalControl
            value={(state.interval ?? 'day') as Interval}
            dateFrom={state.date_from}
            dateTo={state.date_to}
            onChange={(v) => set('interval', v)}
            error={errorFor('interval')}
          />
        ) : null}
      </CommonControls>

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
