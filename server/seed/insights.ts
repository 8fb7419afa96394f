import type { InsightCreate } from '../../src/contract/index.ts';
import { insightActivity } from '../insights/activity.ts';
import { createFields } from '../insights/fields.ts';
import type { ActivityChange } from '../store/activity-log.ts';
import type { Store } from '../store/store.ts';
import { SEED_EPOCH } from './data.ts';
import type { Prng } from './prng.ts';

/**
 * The demo insights of every seeded project: each kind (trends, funnels, retention, paths) and
 * each trends display, some favorited, one shared, one deleted, each with its activity. Dated
 * from the seed's clock (SEED_EPOCH), written through the same rules as the API's create (server/insights/fields.ts).
 */

export interface SeedInsight {
  body: InsightCreate;
  /** Days after SEED_EPOCH it was created. */
  day: number;
  shared?: boolean;
  deleted?: boolean;
}

const pageview = { id: '$pageview', type: 'events' } as const;

export const SEED_INSIGHTS: readonly SeedInsight[] = [
  { day: 20, body: { name: 'Pageviews', description: 'Every page view, daily.', tags: ['traffic'], favorited: true, saved: true,
    filters: { insight: 'TRENDS', events: [{ ...pageview, math: 'total' }], date_from: '-30d', interval: 'day', display: 'ActionsLineGraph' } } },
  { day: 21, body: { name: '', saved: true, tags: ['engagement'],
    filters: { insight: 'TRENDS', events: [{ ...pageview, math: 'dau' }], date_from: '-30d', interval: 'day', display: 'ActionsLineGraph' } } },
  { day: 22, body: { name: 'Pageviews by browser', saved: true, tags: ['traffic'],
    filters: { insight: 'TRENDS', events: [{ ...pageview }], breakdown: '$browser', breakdown_type: 'event', date_from: '-14d', display: 'ActionsBar' } } },
  { day: 23, body: { name: 'Revenue', description: 'Sum of purchase revenue over the last 90 days.', tags: ['revenue'], favorited: true, saved: true,
    filters: { insight: 'TRENDS', events: [{ id: 'purchase', type: 'events', math: 'sum', math_property: 'revenue' }], date_from: '-90d', display: 'BoldNumber' } } },
  { day: 24, body: { name: 'Purchases per signup', saved: true, tags: ['revenue', 'growth'],
    filters: { insight: 'TRENDS', events: [{ id: 'user signed up', type: 'events' }, { id: 'purchase', type: 'events', order: 1 }], formula: 'B / A', date_from: '-60d', interval: 'week', display: 'ActionsLineGraphCumulative' } } },
  { day: 25, body: { name: 'Traffic share by browser', saved: true,
    filters: { insight: 'TRENDS', events: [{ ...pageview }], breakdown: '$browser', breakdown_type: 'event', date_from: '-30d', display: 'ActionsPie' } } },
  { day: 26, body: { name: 'Purchases by plan', saved: true, tags: ['revenue'],
    filters: { insight: 'TRENDS', events: [{ id: 'purchase', type: 'events' }], breakdown: 'plan', breakdown_type: 'event', date_from: '-30d', display: 'ActionsBarValue' } } },
  { day: 27, shared: true, body: { name: 'Signup to purchase', description: 'Shared with the board.', tags: ['growth'], favorited: true, saved: true,
    query: { kind: 'InsightVizNode', source: { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: 'user signed up' }, { kind: 'EventsNode', event: 'created project' }, { kind: 'EventsNode', event: 'purchase' }], dateRange: { date_from: '-90d' }, funnelsFilter: { funnelWindowInterval: 14, funnelWindowIntervalUnit: 'day' } } } } },
  { day: 28, body: { name: 'Time to first project', saved: true,
    filters: { insight: 'FUNNELS', events: [{ id: 'user signed up', type: 'events' }, { id: 'created project', type: 'events', order: 1 }], funnel_viz_type: 'time_to_convert', date_from: '-90d' } } },
  { day: 29, body: { name: 'Weekly retention', saved: true, tags: ['engagement'],
    filters: { insight: 'RETENTION', target_entity: { id: 'user signed up', type: 'events' }, returning_entity: { ...pageview }, period: 'Week', total_intervals: 8, date_from: '-60d' } } },
  { day: 30, body: { name: '', saved: true,
    filters: { insight: 'PATHS', include_event_types: ['$pageview'], step_limit: 5, date_from: '-14d' } } },
  { day: 31, deleted: true, body: { name: 'Old pageview table', saved: true,
    filters: { insight: 'TRENDS', events: [{ ...pageview }], date_from: '-7d', display: 'ActionsTable' } } },
];

const at = (day: number, minutes = 0) => new Date(SEED_EPOCH + day * 86_400_000 + minutes * 60_000).toISOString();

/** Seeds SEED_INSIGHTS into `projectId` (organization `organizationId`) as `userId`. */
export function seedInsights(store: Store, prng: Prng, organizationId: string, projectId: number, userId: number): void {
  for (const s of SEED_INSIGHTS) {
    const created = at(s.day);
    const id = store.insights.create(projectId, userId, createFields({ ...s.body, deleted: false }, created, userId), created, prng.base62(8));
    const row = store.insights.get(projectId, id)!;
    const log = (activity: string, when: string, changes: ActivityChange[] | null = null) =>
      store.activityLog.add(insightActivity(row, organizationId, userId, activity, changes), when);
    log('created', created);
    if (s.body.favorited) log('updated', at(s.day, 5), [{ type: 'Insight', action: 'changed', field: 'favorited', before: false, after: true }]);
    if (s.shared) {
      store.insightSharing.setEnabled(id, true, at(s.day, 10));
      log('shared', at(s.day, 10));
    }
    if (s.deleted) {
      store.insights.update(id, { ...row, deleted: 1, updated_at: at(s.day, 15) });
      log('deleted', at(s.day, 15));
    }
  }
}
