import type { InsightCreate } from '../../src/contract/index.ts';
import { insightActivity } from '../insights/activity.ts';
import { createFields } from '../insights/fields.ts';
import type { ActivityChange } from '../store/activity-log.ts';
import type { Store } from '../store/store.ts';
import type { SeedClock } from './data.ts';
import type { Prng } from './prng.ts';

/**
 * The demo insights of every seeded project: each kind (trends, funnels, retention, paths) and
 * each trends display, some favorited, one shared, one deleted, each with its activity. Dated
 * relative to the seed's clock (the newest a few hours old), written through the same rules as the API's create (server/insights/fields.ts).
 */

export interface SeedInsight {
  body: InsightCreate;
  /** Hours before the seed's moment it was created (the list's order: oldest first). */
  hoursAgo: number;
  shared?: boolean;
  deleted?: boolean;
}

const pageview = { id: '$pageview', type: 'events' } as const;

export const SEED_INSIGHTS: readonly SeedInsight[] = [
  {
    hoursAgo: 240,
    body: {
      name: 'Pageviews',
      description: 'Every page view, daily.',
      tags: ['traffic'],
      favorited: true,
      saved: true,
      filters: {
        insight: 'TRENDS',
        events: [{ ...pageview, math: 'total' }],
        date_from: '-30d',
        interval: 'day',
        display: 'ActionsLineGraph',
      },
    },
  },
  {
    hoursAgo: 200,
    body: {
      name: '',
      saved: true,
      tags: ['engagement'],
      filters: {
        insight: 'TRENDS',
        events: [{ ...pageview, math: 'dau' }],
        date_from: '-30d',
        interval: 'day',
        display: 'ActionsLineGraph',
      },
    },
  },
  {
    hoursAgo: 170,
    body: {
      name: 'Pageviews by browser',
      saved: true,
      tags: ['traffic'],
      filters: {
        insight: 'TRENDS',
        events: [{ ...pageview }],
        breakdown: '$browser',
        breakdown_type: 'event',
        date_from: '-14d',
        display: 'ActionsBar',
      },
    },
  },
  {
    hoursAgo: 140,
    body: {
      name: 'Revenue',
      description: 'Sum of purchase revenue over the last 90 days.',
      tags: ['revenue'],
      favorited: true,
      saved: true,
      filters: {
        insight: 'TRENDS',
        events: [{ id: 'purchase', type: 'events', math: 'sum', math_property: 'revenue' }],
        date_from: '-90d',
        display: 'BoldNumber',
      },
    },
  },
  {
    hoursAgo: 115,
    body: {
      name: 'Purchases per signup',
      saved: true,
      tags: ['revenue', 'growth'],
      filters: {
        insight: 'TRENDS',
        events: [
          { id: 'user signed up', type: 'events' },
          { id: 'purchase', type: 'events', order: 1 },
        ],
        formula: 'B / A',
        date_from: '-60d',
        interval: 'week',
        display: 'ActionsLineGraphCumulative',
      },
    },
  },
  {
    hoursAgo: 90,
    body: {
      name: 'Traffic share by browser',
      saved: true,
      filters: {
        insight: 'TRENDS',
        events: [{ ...pageview }],
        breakdown: '$browser',
        breakdown_type: 'event',
        date_from: '-30d',
        display: 'ActionsPie',
      },
    },
  },
  {
    hoursAgo: 70,
    body: {
      name: 'Purchases by plan',
      saved: true,
      tags: ['revenue'],
      filters: {
        insight: 'TRENDS',
        events: [{ id: 'purchase', type: 'events' }],
        breakdown: 'plan',
        breakdown_type: 'event',
        date_from: '-30d',
        display: 'ActionsBarValue',
      },
    },
  },
  {
    hoursAgo: 50,
    shared: true,
    body: {
      name: 'Signup to purchase',
      description: 'Shared with the board.',
      tags: ['growth'],
      favorited: true,
      saved: true,
      query: {
        kind: 'InsightVizNode',
        source: {
          kind: 'FunnelsQuery',
          series: [
            { kind: 'EventsNode', event: 'user signed up' },
            { kind: 'EventsNode', event: 'created project' },
            { kind: 'EventsNode', event: 'purchase' },
          ],
          dateRange: { date_from: '-90d' },
          funnelsFilter: { funnelWindowInterval: 14, funnelWindowIntervalUnit: 'day' },
        },
      },
    },
  },
  {
    hoursAgo: 30,
    body: {
      name: 'Time to first project',
      saved: true,
      filters: {
        insight: 'FUNNELS',
        events: [
          { id: 'user signed up', type: 'events' },
          { id: 'created project', type: 'events', order: 1 },
        ],
        funnel_viz_type: 'time_to_convert',
        date_from: '-90d',
      },
    },
  },
  {
    hoursAgo: 20,
    body: {
      name: 'Weekly retention',
      saved: true,
      tags: ['engagement'],
      filters: {
        insight: 'RETENTION',
        target_entity: { id: 'user signed up', type: 'events' },
        returning_entity: { ...pageview },
        period: 'Week',
        total_intervals: 8,
        date_from: '-60d',
      },
    },
  },
  {
    hoursAgo: 3,
    body: {
      name: '',
      saved: true,
      filters: { insight: 'PATHS', include_event_types: ['$pageview'], step_limit: 5, date_from: '-14d' },
    },
  },
  {
    hoursAgo: 2,
    deleted: true,
    body: {
      name: 'Old pageview table',
      saved: true,
      filters: { insight: 'TRENDS', events: [{ ...pageview }], date_from: '-7d', display: 'ActionsTable' },
    },
  },
];

/** Seeds SEED_INSIGHTS into `projectId` (organization `organizationId`) as `userId`. */
export function seedInsights(
  store: Store,
  prng: Prng,
  organizationId: string,
  projectId: number,
  userId: number,
  clock: SeedClock,
): void {
  for (const s of SEED_INSIGHTS) {
    const at = (hoursAgo: number, minutes = 0) => clock.hoursAgo(hoursAgo - minutes / 60);
    const created = at(s.hoursAgo);
    const id = store.insights.create(
      projectId,
      userId,
      createFields({ ...s.body, deleted: false }, created, userId),
      created,
      prng.base62(8),
    );
    const row = store.insights.get(projectId, id)!;
    const log = (activity: string, when: string, changes: ActivityChange[] | null = null) =>
      store.activityLog.add(insightActivity(row, organizationId, userId, activity, changes), when);
    log('created', created);
    if (s.body.favorited)
      log('updated', at(s.hoursAgo, 5), [
        { type: 'Insight', action: 'changed', field: 'favorited', before: false, after: true },
      ]);
    if (s.shared) {
      store.insightSharing.setEnabled(id, true, at(s.hoursAgo, 10));
      log('shared', at(s.hoursAgo, 10));
    }
    if (s.deleted) {
      store.insights.update(id, { ...row, deleted: 1, updated_at: at(s.hoursAgo, 15) });
      log('deleted', at(s.hoursAgo, 15));
    }
  }
}
