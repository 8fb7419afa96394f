// Cohort filters' cost: a trend and a funnel on seeded demo events, each with a cohort filter
// beside the same query without it (median of N runs, result cache off), and the ratio.
// Target: a cohort filter costs at most 1.5× the query without it (docs/api.md, "Cohorts":
// analyses semi-join the cohort's stored members by person key).
// Usage: node bench/cohorts.mjs [--events 1000000] [--runs 10] [--data-dir DIR]
//   (SEED_EVENTS sets --events' default; --data-dir reuses a directory seeded by an earlier run.)
import { comparePairs, medianTime, withSeededAnalytics } from './api-lib.mjs';

await withSeededAnalytics('bench-cohorts-', async ({ call, prj, once, runs }) => {
  // Two cohorts: one by a person property, one by behaviour (bought in the last 90 days).
  let t = performance.now();
  const pro = await call('POST', `${prj}/cohorts/`, {
    name: 'Paying plans',
    filters: {
      properties: {
        type: 'AND',
        values: [{ type: 'person', key: 'plan', operator: 'exact', value: ['pro', 'enterprise'] }],
      },
    },
  });
  const proMs = performance.now() - t;
  t = performance.now();
  const buyers = await call('POST', `${prj}/cohorts/`, {
    name: 'Buyers',
    filters: {
      properties: {
        type: 'AND',
        values: [
          { type: 'behavioral', key: 'purchase', value: 'performed_event', time_value: 90, time_interval: 'day' },
        ],
      },
    },
  });
  const buyersMs = performance.now() - t;
  console.log(
    `cohort "${pro.name}": ${pro.count} persons, computed in ${proMs.toFixed(0)} ms; "${buyers.name}": ${buyers.count} persons, ${buyersMs.toFixed(0)} ms`,
  );

  const trend = {
    events: ['$pageview', 'user signed up', 'purchase'].map((id) => ({ id })),
    date_from: '-30d',
    interval: 'day',
  };
  const funnel = {
    events: ['$pageview', 'user signed up', 'created project', 'purchase'].map((id, order) => ({ id, order })),
    date_from: '-90d',
  };
  const filter = (id) => ({ properties: [{ type: 'cohort', key: 'id', value: id, operator: 'in' }] });
  const PAIRS = [
    ['trend', 'trend', trend, pro.id],
    ['trend, dau', 'trend', { ...trend, events: trend.events.map((e) => ({ ...e, math: 'dau' })) }, pro.id],
    ['funnel', 'funnel', funnel, pro.id],
    ['funnel, behavioural', 'funnel', funnel, buyers.id],
  ];
  const missed = await comparePairs({
    once,
    runs,
    pairs: PAIRS.map(([name, path, body, cohort]) => [name, path, body, filter(cohort)]),
    headings: ['without ms', 'with cohort ms'],
  });
  const split = await medianTime(once, runs, 'trend', {
    ...trend,
    breakdown: ['all', pro.id, buyers.id],
    breakdown_type: 'cohort',
  });
  console.log(`trend by 3 cohorts (all, ${pro.name}, ${buyers.name}): ${split.toFixed(0)} ms`);
  return missed;
});
