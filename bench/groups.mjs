// Group aggregation's cost: a trend (unique companies vs unique persons) and a funnel (companies
// vs persons converting) on seeded demo events, each query by group beside the same query by
// person, the two alternating run by run (median of N runs, result cache off), and the ratio.
// Target: aggregating by a group type costs at most 1.5× the same analysis by person
// (docs/api.md, "Groups": the group's key is read from the event, funnels group by its integer key).
// Usage: node bench/groups.mjs [--events 1000000] [--runs 10] [--data-dir DIR]
//   (SEED_EVENTS sets --events' default; --data-dir reuses a directory seeded by an earlier run.)
import { comparePairs, withSeededAnalytics } from './api-lib.mjs';

await withSeededAnalytics('bench-groups-', async ({ call, prj, once, runs }) => {
  const types = await call('GET', `${prj}/groups_types/`);
  const company = types.find((t) => t.group_type === 'company');
  if (!company) throw new Error('the seeded project has no company group type');
  const companies = await call('GET', `${prj}/groups/?group_type_index=${company.group_type_index}&limit=1`);
  console.log(`group type "company" is ${company.group_type_index}; ${companies.count} companies`);

  const byCompany = { aggregation_group_type_index: company.group_type_index };
  const trend = {
    events: ['$pageview', 'user signed up', 'purchase'].map((id) => ({ id, math: 'dau' })),
    date_from: '-30d',
    interval: 'day',
  };
  const funnel = {
    events: ['$pageview', 'user signed up', 'created project', 'purchase'].map((id, order) => ({ id, order })),
    date_from: '-90d',
  };
  const PAIRS = [
    ['trend, dau', 'trend', trend],
    ['trend, weekly active', 'trend', { ...trend, events: [{ id: '$pageview', math: 'weekly_active' }] }],
    ['funnel', 'funnel', funnel],
    // A filter every event passes: the person funnel then reads SQL too, not the in-memory person index.
    [
      'funnel, both by SQL',
      'funnel',
      { ...funnel, properties: [{ key: '$browser', type: 'event', operator: 'is_not', value: 'no such browser' }] },
    ],
    [
      'retention',
      'retention',
      { target_entity: { id: '$pageview' }, returning_entity: { id: '$pageview' }, period: 'Week', total_intervals: 8 },
    ],
  ];
  return comparePairs({
    once,
    runs,
    pairs: PAIRS.map(([name, path, body]) => [name, path, body, byCompany]),
    headings: ['by person ms', 'by company ms'],
  });
});
