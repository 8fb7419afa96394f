import type { FunnelTrendsSeries, TrendSeries } from '@/contract/analytics-results';
import { isPropertyMath } from '@/contract/analytics-params';
import { eventLabel, mathWords, PROPERTY_MATH_WORDS, propertyLabel } from './display-names';
import type { ValueUnit } from './format';
import type { TrendDisplay, TrendSeriesView, TrendsView } from './view-types';
import { actorsTitle, PERSONS, type ActorWords } from './actor-words';

const DISPLAYS: Record<string, TrendDisplay> = {
  ActionsLineGraph: 'line',
  ActionsLineGraphCumulative: 'cumulative',
  ActionsAreaGraph: 'area',
  ActionsTable: 'table',
  ActionsPie: 'pie',
  ActionsBar: 'bar',
  ActionsBarValue: 'bar-value',
  WorldMap: 'map',
  BoldNumber: 'number',
  // Older displays of saved insights.
  ActionsStackedBar: 'bar',
};
/** Displays that draw points over time; the others draw one value per series. */
const TIME_SERIES: ReadonlySet<TrendDisplay> = new Set(['line', 'cumulative', 'area', 'bar']);
export const isTimeSeries = (display: TrendDisplay) => TIME_SERIES.has(display);

export function trendDisplay(display: unknown): TrendDisplay {
  return (typeof display === 'string' && DISPLAYS[display]) || 'line';
}

/** A breakdown value as text (a list of values joined), null without a breakdown. */
export function breakdownText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return String(value);
  // Several breakdowns: their values joined, as the series' label has them (docs/api.md).
  if (value.length > 0 && value.every((v) => v === BREAKDOWN_OTHER)) return 'Other';
  return value.map((v) => (v === BREAKDOWN_NULL ? 'None' : String(v))).join(' · ');
}
const BREAKDOWN_OTHER = '$$_posthog_breakdown_other_$$';
const BREAKDOWN_NULL = '$$_posthog_breakdown_null_$$';

const isDuration = (action: Record<string, unknown> | null | undefined) => {
  const property = action?.math_property;
  return typeof property === 'string' && isPropertyMath(action?.math) && /duration|_time$/i.test(property);
};

/** A series' name: its custom name, else its event (with its math when that is not the count). */
const nameOf = (s: TrendSeries, actors: ActorWords) => {
  const a = s.action ?? {};
  if (a.custom_name) return String(a.custom_name);
  const name = a.name || a.id ? eventLabel(String(a.name || a.id)) : 'All events';
  const math = mathWords(
    typeof a.math === 'string' ? a.math : null,
    typeof a.math_property === 'string' ? a.math_property : null,
    typeof a.math_hogql === 'string' ? a.math_hogql : null,
    actors.many,
  );
  return math ? `${name} (${math})` : name;
};

/** What a counting math counts, for the value axis; unique and active maths count `actors`. */
const counted = (math: string, actors: string): string | undefined =>
  ({ total: 'Events', dau: actors, weekly_active: actors, monthly_active: actors, unique_session: 'Sessions' })[math];

/**
 * What the series' values count, for the value axis: the one thing they all count ("Persons",
 * "Sum of revenue"), else "Value"; a formula's values are its own.
 */
function valueLabelOf(result: TrendSeries[], cumulative: boolean, actors: string): string {
  const labels = new Set(
    result.map((s) => {
      const a = s.action;
      if (!a) return 'Formula value';
      const math = typeof a.math === 'string' ? a.math : 'total';
      if (isPropertyMath(math)) {
        const word = PROPERTY_MATH_WORDS[math];
        return typeof a.math_property === 'string' ? `${word} of ${propertyLabel(a.math_property)}` : word;
      }
      return counted(math, actors) ?? 'Value';
    }),
  );
  const label = labels.size === 1 ? [...labels][0]! : 'Value';
  return cumulative ? `${label} (running total)` : label;
}

/** A series' x labels: the API's, else its dates. */
const xLabels = (s: { labels: string[]; days: string[] }) => (s.labels.length > 0 ? s.labels : s.days);

/** Trend series (from `trend/` or a saved insight's result) as the chart and the table read them. */
export function trendsView(
  result: TrendSeries[],
  options: { display: unknown; compare?: unknown; actors?: ActorWords },
): TrendsView {
  let display = trendDisplay(options.display ?? result[0]?.filter?.display);
  const aggregated = result.every((s) => s.data.length === 0);
  if (aggregated && TIME_SERIES.has(display)) display = 'bar-value';
  const compare = Boolean(options.compare) || result.some((s) => s.compare_label === 'previous');
  // With a breakdown, a series' `label` is already its breakdown value (docs/api.md); the
  // series' own name (from `action`) goes in front only when there is more than one series.
  const actors = options.actors ?? PERSONS;
  const name = (s: TrendSeries) => nameOf(s, actors);
  const names = new Set(result.map(name));
  const colours = new Map<string, number>();
  const keys = new Set<string>();
  const series = result.map((s, index): TrendSeriesView => {
    const breakdownValue = breakdownText(s.breakdown_value);
    const period = s.compare_label === 'current' || s.compare_label === 'previous' ? s.compare_label : null;
    // A compared pair shares a colour; a formula's series (no action) are told apart by label.
    const pair = s.action ? `${String(s.action.order ?? name(s))}|${breakdownValue ?? ''}` : `formula|${s.label}`;
    if (!colours.has(pair)) colours.set(pair, colours.size);
    // Without a breakdown a series is named by its event in words and its math ("purchase (sum
    // of revenue)", not a bare "purchase" over a sum); a formula has no action and keeps its label.
    const base = !s.action
      ? s.label
      : breakdownValue === null
        ? name(s)
        : names.size > 1
          ? `${name(s)} · ${s.label}`
          : s.label;
    let key = `${period ?? 'all'}|${pair}`;
    if (keys.has(key)) key += `|${index}`;
    keys.add(key);
    // A cumulative line's points come from the API as running totals already (`display` changes
    // how the data is returned); its total is the last of them.
    const data = s.data;
    const sum = display === 'cumulative' ? (s.data.at(-1) ?? 0) : s.data.reduce((a, b) => a + b, 0);
    return {
      key,
      label: period === 'previous' ? `${base} (previous)` : base,
      colour: colours.get(pair)!,
      data,
      total: s.aggregated_value ?? (s.data.length > 0 ? sum : s.count),
      period,
      breakdownValue,
      days: s.days,
      labels: xLabels(s),
    };
  });
  const first = result.find((s) => s.compare_label !== 'previous') ?? result[0];
  const labels = aggregated || !first ? [] : xLabels(first);
  const unit: ValueUnit = result.length > 0 && result.every((s) => isDuration(s.action)) ? 'duration' : 'number';
  return {
    type: 'trends',
    display,
    labels,
    series,
    compare,
    unit,
    valueLabel: valueLabelOf(result, display === 'cumulative', actorsTitle(actors)),
  };
}

/** `funnel_viz_type: trends`: conversion (%) over time, one line per breakdown value. */
export function funnelTrendsView(result: FunnelTrendsSeries[]): TrendsView {
  const series = result.map((s, index): TrendSeriesView => {
    const breakdownValue = breakdownText(s.breakdown_value);
    return {
      key: `funnel|${index}`,
      label: breakdownValue ?? 'Conversion rate',
      colour: index,
      data: s.data,
      total: s.data.length > 0 ? s.data.reduce((a, b) => a + b, 0) / s.data.length : 0,
      period: null,
      breakdownValue,
      days: s.days,
      labels: xLabels(s),
    };
  });
  const first = result[0];
  return {
    type: 'trends',
    display: 'line',
    labels: first ? xLabels(first) : [],
    series,
    compare: false,
    unit: 'percent',
    valueLabel: 'Conversion rate',
  };
}
