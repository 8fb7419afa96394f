import { useId } from 'react';
import {
  DISPLAY_TYPES,
  type DisplayType,
  type EntityInput,
  type Interval,
  type TrendParamsInput,
} from '@/contract/analytics-params';
import { Switch } from '@/components/ui/switch';
import { AggregationControl } from './aggregation-control';
import { CommonControls } from './common-controls';
import { DISPLAY_LABELS, WORLD_MAP_BREAKDOWN } from './display-options';
import { ControlSection, FieldMessage, selectClasses } from './field-parts';
import { FormulaList } from './formula-field';
import { IntervalControl } from './interval-control';
import { usePickerBindings, type PanelProps } from './panel-types';
import { BreakdownControl, SeriesList } from './pickers';
import { seriesLetter } from './pickers/labels';
import { useActorWords } from '../../api/use-actor-words';

/** Trends: series over time (or aggregated), filtered, broken down, compared, combined by a formula. */
export function TrendsPanel({ projectId, state, onChange, errorFor }: PanelProps<TrendParamsInput>) {
  const displayId = useId();
  const compareId = useId();
  const { patchState: set, setEvents, breakdown } = usePickerBindings(state, onChange);
  const series = (state.events ?? []) as EntityInput[];
  const actors = useActorWords(projectId, state.aggregation_group_type_index);
  const letters = series.map((_, i) => seriesLetter(i));
  const eventNames = series.map((e) => e.id).filter((id): id is string => typeof id === 'string');
  const display = (state.display ?? 'ActionsLineGraph') as DisplayType;

  const setDisplay = (next: DisplayType) => {
    // The world map needs countries: it brings its breakdown when there is none.
    if (next === 'WorldMap' && !state.breakdown)
      set({ display: next, breakdown: WORLD_MAP_BREAKDOWN, breakdown_type: 'event' });
    else set({ display: next });
  };

  return (
    <>
      <ControlSection title="Series">
        <SeriesList
          projectId={projectId}
          mode="trends"
          value={series}
          errorFor={errorFor}
          onChange={setEvents}
          actors={actors}
        />
        <FormulaList
          value={state.formulas?.length ? state.formulas : [state.formula ?? '']}
          letters={letters}
          errorAt={(i) => (state.formulas?.length ? errorFor(`formulas__${i}`) : errorFor('formula'))}
          // One formula is `formula`, as saved insights have it; several are `formulas`.
          onChange={(list) =>
            set(
              list.length > 1
                ? { formulas: list, formula: undefined }
                : { formula: list[0] || undefined, formulas: undefined },
            )
          }
        />
        <AggregationControl
          projectId={projectId}
          value={state.aggregation_group_type_index}
          errorFor={errorFor}
          hint="Unique and active counts count these; with a group type, events without one do not count."
          onChange={(v) => set({ aggregation_group_type_index: v })}
        />
      </ControlSection>
      <CommonControls
        projectId={projectId}
        state={state}
        onChange={onChange}
        errorFor={errorFor}
        eventNames={eventNames}
      >
        <IntervalControl
          value={(state.interval ?? 'day') as Interval}
          dateFrom={state.date_from}
          dateTo={state.date_to}
          error={errorFor('interval')}
          onChange={(interval) => set({ interval })}
        />
        <div className="flex items-center justify-between gap-3">
          <label htmlFor={compareId} className="text-sm font-medium">
            Compare to the previous period
          </label>
          <Switch
            id={compareId}
            checked={state.compare === true}
            onCheckedChange={(on) => set({ compare: on || undefined })}
          />
        </div>
      </CommonControls>
      <ControlSection title="Breakdown">
        <BreakdownControl
          projectId={projectId}
          defaultLimit={25}
          errorFor={errorFor}
          value={breakdown}
          onChange={set}
        />
      </ControlSection>
      <ControlSection title="Display">
        <div className="space-y-1.5">
          <label htmlFor={displayId} className="block text-sm font-medium">
            Chart type
          </label>
          <select
            id={displayId}
            className={selectClasses(Boolean(errorFor('display')), 'w-full')}
            value={display}
            aria-describedby={display === 'WorldMap' || errorFor('display') ? `${displayId}-hint` : undefined}
            onChange={(e) => setDisplay(e.target.value as DisplayType)}
          >
            {DISPLAY_TYPES.map((d) => (
              <option key={d} value={d}>
                {DISPLAY_LABELS[d]}
              </option>
            ))}
          </select>
          <FieldMessage
            id={`${displayId}-hint`}
            error={errorFor('display')}
            hint={
              display === 'WorldMap'
                ? `The map shows one value per country: it is broken down by ${state.breakdown === WORLD_MAP_BREAKDOWN ? 'country code ($geoip_country_code), set when the map was chosen' : `“${String(state.breakdown)}”, which should hold country codes`}.`
                : undefined
            }
          />
        </div>
      </ControlSection>
    </>
  );
}
