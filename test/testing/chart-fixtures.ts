/**
 * Test data for the chart kit's tests: events sent to the reference server's capture endpoint,
 * and the analysis results computed from them (real `result` shapes, never hand-written). Takes
 * the test API's `call`; imported by test files only.
 */
import type { Insight } from '@/contract/insights';

export type Call = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

const DAY = 86_400_000;
export const BROWSERS = ['Chrome', 'Safari', 'Firefox'] as const;
/** SG is not on the 110m world map. */
export const COUNTRIES = ['US', 'DE', 'FR', 'SG'] as const;
const PAGES = ['/', '/pricing', '/signup', '/docs'];

/** 12 persons over the last 14 days: pageviews by browser, country and page; signup → project → purchase for some. */
export async function sendChartEvents(call: Call, token: string, now = Date.now()): Promise<void> {
  const batch: Array<Record<string, unknown>> = [];
  const at = (ms: number) => new Date(ms).toISOString();
  for (let person = 0; person < 12; person += 1) {
    const properties = { $browser: BROWSERS[person % 3], $geoip_country_code: COUNTRIES[person % 4] };
    for (let day = 0; day < 14; day += 1) {
      if ((person + day) % 3 === 0) continue;
      const start = now - day * DAY - 3 * 3_600_000 - person * 60_000;
      for (let k = 0; k < 3; k += 1) {
        const page = PAGES[(person + k + day) % PAGES.length]!;
        batch.push({
          event: '$pageview',
          distinct_id: `p${person}`,
          timestamp: at(start + k * 60_000),
          properties: { ...properties, $current_url: `https://example.com${page}`, $pathname: page },
        });
      }
    }
    if (person < 10) {
      const signup = now - 10 * DAY - person * 3_600_000;
      batch.push({ event: 'user signed up', distinct_id: `p${person}`, timestamp: at(signup), properties });
      if (person < 6)
        batch.push({
          event: 'created project',
          distinct_id: `p${person}`,
          timestamp: at(signup + (person + 1) * 600_000),
          properties,
        });
      if (person < 3)
        batch.push({ event: 'purchase', distinct_id: `p${person}`, timestamp: at(signup + DAY), properties });
    }
  }
  await call('POST', '/batch/', { api_key: token, batch });
}

const pageviews = [{ id: '$pageview', type: 'events', order: 0 }];
const signups = [{ id: 'user signed up', type: 'events', order: 1 }];
const steps = [
  { id: 'user signed up', type: 'events', order: 0 },
  { id: 'created project', type: 'events', order: 1 },
  { id: 'purchase', type: 'events', order: 2 },
];

type Filters = Record<string, unknown>;
/** An insight as the builders pass it: the legacy filters, no query, the endpoint's `result`. */
export type LiveInsight = Pick<Insight, 'filters' | 'query' | 'result'>;

/** Runs the analysis of `filters` (trend/, funnel/, retention/ or path/) and returns it as an insight. */
export async function live(call: Call, project: number, filters: Filters): Promise<LiveInsight> {
  const endpoint = { TRENDS: 'trend', FUNNELS: 'funnel', RETENTION: 'retention', PATHS: 'path' }[
    filters.insight as string
  ]!;
  const { result } = await call<{ result: unknown }>('POST', `/api/projects/${project}/insights/${endpoint}/`, filters);
  return { filters, query: null, result };
}

/** The filters of every view the kit draws. */
export const FILTERS = {
  line: {
    insight: 'TRENDS',
    events: [...pageviews, ...signups],
    date_from: '-14d',
    interval: 'day',
    display: 'ActionsLineGraph',
  },
  byBrowser: {
    insight: 'TRENDS',
    events: pageviews,
    date_from: '-14d',
    interval: 'day',
    display: 'ActionsLineGraph',
    breakdown: '$browser',
  },
  twoByBrowser: {
    insight: 'TRENDS',
    events: [...pageviews, ...signups],
    date_from: '-14d',
    interval: 'day',
    breakdown: '$browser',
  },
  compare: {
    insight: 'TRENDS',
    events: pageviews,
    date_from: '-7d',
    interval: 'day',
    display: 'ActionsLineGraph',
    compare: true,
  },
  cumulative: {
    insight: 'TRENDS',
    events: pageviews,
    date_from: '-14d',
    interval: 'day',
    display: 'ActionsLineGraphCumulative',
    breakdown: '$browser',
  },
  bar: {
    insight: 'TRENDS',
    events: pageviews,
    date_from: '-14d',
    interval: 'day',
    display: 'ActionsBar',
    breakdown: '$browser',
  },
  table: { insight: 'TRENDS', events: pageviews, date_from: '-14d', display: 'ActionsTable', breakdown: '$browser' },
  pie: { insight: 'TRENDS', events: pageviews, date_from: '-14d', display: 'ActionsPie', breakdown: '$browser' },
  barValue: {
    insight: 'TRENDS',
    events: pageviews,
    date_from: '-14d',
    display: 'ActionsBarValue',
    breakdown: '$browser',
    compare: true,
  },
  map: {
    insight: 'TRENDS',
    events: pageviews,
    date_from: '-14d',
    display: 'WorldMap',
    breakdown: '$geoip_country_code',
  },
  number: { insight: 'TRENDS', events: pageviews, date_from: '-7d', display: 'BoldNumber', compare: true },
  funnel: { insight: 'FUNNELS', events: steps, date_from: '-30d', funnel_viz_type: 'steps' },
  funnelByBrowser: {
    insight: 'FUNNELS',
    events: steps,
    date_from: '-30d',
    funnel_viz_type: 'steps',
    breakdown: '$browser',
  },
  funnelTrends: { insight: 'FUNNELS', events: steps, date_from: '-30d', interval: 'week', funnel_viz_type: 'trends' },
  timeToConvert: {
    insight: 'FUNNELS',
    events: steps.slice(0, 2),
    date_from: '-30d',
    funnel_viz_type: 'time_to_convert',
  },
  retention: {
    insight: 'RETENTION',
    target_entity: { id: '$pageview', type: 'events' },
    returning_entity: { id: '$pageview', type: 'events' },
    retention_type: 'retention_recurring',
    period: 'Day',
    total_intervals: 7,
    date_from: '-7d',
  },
  paths: { insight: 'PATHS', include_event_types: ['$pageview'], step_limit: 4, date_from: '-14d' },
} satisfies Record<string, Filters>;
