import { useId } from 'react';
import {
  FUNNEL_ORDER_TYPES, FUNNEL_VIZ_TYPES, type FunnelParamsInput, type Interval, type PropertyGroupInput,
} from '@/contract/analytics-params';
import { DateRangeControl } from './date-range-control';
import { ControlSection, FieldMessage, selectClasses } from './field-parts';
import { FunnelExclusions } from './funnel-exclusions';
import { FunnelWindowControl } from './funnel-window-control';
import { IntervalControl } from './interval-control';
import type { PanelProps } from './panel-types';
import { PropertyFilters } from './pickers/property-filters';
import { TestAccountsToggle } from './test-accounts-toggle';

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

/** `properties` as the filter editor takes it: a group (a legacy list becomes an AND group). */
function groupOf(properties: unknown): PropertyGroupInput | undefined {
  if (Array.isArray(properties)) return { type: 'AND', values: properties as PropertyGroupInput['values'] };
  if (properties && typeof properties === 'object') return properties as PropertyGroupInput;
  return undefined;
}

/** Removes `key` when `value` is undefined (the URL keeps only what is set). */
function patch<K extends keyof FunnelParamsInput>(state: FunnelParamsInput, key: K, value: FunnelParamsInput[K] | undefined): FunnelParamsInput {
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
  const set = <K extends keyof FunnelParamsInput>(key: K, value: FunnelParamsInput[K] | undefined) => onChange(patch(state, key, value));

  return (
    <div className="space-y-6">
      <ControlSection title="Steps">
        <div className="space-y-1.5">
          <label htmlFor={`${id}-viz`} className="block text-sm font-medium">Graph type</label>
          <select id={`${id}-viz`} value={viz} onChange={(e) => set('funnel_viz_type', e.target.value as VizType)} className={selectClasses(false, 'w-full')}>
            {FUNNEL_VIZ_TYPES.map((v) => <option key={v} value={v}>{VIZ_TYPE_LABELS[v]}</option>)}
          </select>
        </div>
      </ControlSection>

      <ControlSection title="Conversion">
        <FunnelWindowControl state={state} onChange={onChange} error={errorFor('funnel_window_interval') ?? errorFor('funnel_window_interval_unit') ?? errorFor('funnel_window_days')} />
        <div className="space-y-1.5">
          <label htmlFor={`${id}-order`} className="block text-sm font-medium">Step order</label>
          <select
            id={`${id}-order`}
            value={order}
            aria-describedby={`${id}-order-hint`}
            onChange={(e) => set('funnel_order_type', e.target.value as OrderType)}
            className={selectClasses(Boolean(errorFor('funnel_order_type')), 'w-full')}
          >
            {FUNNEL_ORDER_TYPES.map((o) => <option key={o} value={o}>{ORDER_TYPE_LABELS[o].label}</option>)}
          </select>
          <FieldMessage id={`${id}-order-hint`} error={errorFor('funnel_order_type')} hint={ORDER_TYPE_LABELS[order].hint} />
        </div>
        <p className="text-sm">
          <span className="font-medium">Aggregating by:</span> Persons
        </p>
      </ControlSection>

      <ControlSection title="Exclusions">
        <FunnelExclusions projectId={projectId} state={state} onChange={onChange} errorFor={errorFor} />
      </ControlSection>

      <ControlSection title="Filters">
        <PropertyFilters
          projectId={projectId}
          label="Filters"
          groups
          attrPrefix="properties"
          value={groupOf(state.properties)}
          onChange={(next) => set('properties', next)}
          errorFor={errorFor}
        />
        <TestAccountsToggle value={Boolean(state.filter_test_accounts)} onChange={(v) => set('filter_test_accounts', v || undefined)} />
      </ControlSection>

      <ControlSection title="Dates">
        <DateRangeControl
          value={{ date_from: state.date_from, date_to: state.date_to }}
          onChange={(range) => onChange({ ...state, ...range })}
          errorFor={errorFor}
        />
        {viz === 'trends' ? (
          <IntervalControl
            value={(state.interval ?? 'day') as Interval}
            dateFrom={state.date_from}
            dateTo={state.date_to}
            onChange={(v) => set('interval', v)}
            error={errorFor('interval')}
          />
        ) : null}
      </ControlSection>
    </div>
  );
}
