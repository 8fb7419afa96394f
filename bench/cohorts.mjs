// Cohort filters' cost: a trend and a funnel on seeded demo events, each with a cohort filter
// beside the same query without it (median of N runs, result cache off), and the ratio.
// Target: a cohort filter costs at most 1.5× the query without it (docs/api.md, "Cohorts":
// analyses semi-join the cohort's stored members by person key).
// Usage: node bench/cohorts.mjs [--events 1000000] [--runs 10] [--data-dir DIR]
//   (SEED_EVENTS sets --events' default; --data-dir reuses a directory seeded by an earlier run.)
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startServer } from '../scripts/lib.mjs';
import { seededDataDir, waitForIdleMachine } from './api-lib.mjs';

const { values: args } = parseArgs({
  options: { events: { type: 'string', default: process.env.SEED_EVENTS ?? '1000000' }, runs: { type: 'string', default: '10' }, 'data-dir': { type: 'string' } },
});
const runs = Number(args.runs);
const keepDir = Boolean(args['data-dir']);
const dataDir = seededDataDir(args.events, args['data-dir'], 'bench-cohorts-');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
  env: { ...process.env, LOG_REQUESTS: '0', ANALYTICS_CACHE_TTL_MS: '0' },
  quiet: true,
});

let failed = false;
try {
  await waitForIdleMachine(60_000, 'the first queries may read high', 1000);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(`${url}${path}`, { method, headers, body: body && JSON.stringify(body) });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const projectId = (await call('GET', '/api/projects/')).results[0].id;
  const prj = `/api/projects/${projectId}`;
  // Two cohorts: one by a person property, one by behaviour (bought in the last 90 days).
  let t = performance.now();
  const pro = await call('POST', `${prj}/cohorts/`, { name: 'Paying plans', filters: { properties: { type: 'AND', values: [{ type: 'person', key: 'plan', operator: 'exact', value: ['pro', 'enterprise'] }] } } });
  const proMs = performance.now() - t;
  t = performance.now();
  const buyers = await call('POST', `${prj}/cohorts/`, { name: 'Buyers', filters: { properties: { type: 'AND', values: [{ type: 'behavioral', key: 'purchase', value: 'performed_event', time_value: 90, time_interval: 'day' }] } } });
  const buyersMs = performance.now() - t;
  console.log(`cohort "${pro.name}": ${pro.count} persons, computed in ${proMs.toFixed(0)} ms; "${buyers.name}": ${buyers.count} persons, ${buyersMs.toFixed(0)} ms`);

  const trend = { events: ['$pageview', 'user signed up', 'purchase'].map((id) => ({ id })), date_from: '-30d', interval: 'day' };
  const funnel = { events: ['$pageview', 'user signed up', 'created project', 'purchase'].map((id, order) => ({ id, order })), date_from: '-90d' };
  const filter = (id) => ({ properties: [{ type: 'cohort', key: 'id', value: id, operator: 'in' }] });
  const PAIRS = [
    ['trend', 'trend', trend, pro.id],
    ['trend, dau', 'trend', { ...trend, events: trend.events.map((e) => ({ ...e, math: 'dau' })) }, pro.id],
    ['funnel', 'funnel', funnel, pro.id],
    ['funnel, behavioural', 'funnel', funnel, buyers.id],
  ];
  const once = async (path, body) => {
    const start = performance.now();
    const json = await call('POST', `${prj}/insights/${path}/`, body);
    if (json.is_cached) throw new Error('cached');
    return performance.now() - start;
  };
  const time = async (path, body) => {
    await once(path, body);
    const times = [];
    for (let i = 0; i < runs; i++) times.push(await once(path, body));
    return median(times);
  };
  console.log(`\nmedian of ${runs} runs each, cache off, the two queries alternating (a busy machine slows both alike)`);
  console.log('query                   without ms   with cohort ms   ratio   target');
  for (const [name, path, body, cohort] of PAIRS) {
    const filtered = { ...body, ...filter(cohort) };
    await once(path, body);
    await once(path, filtered);
    const without = [];
    const withCohort = [];
    for (let i = 0; i < runs; i++) {
      without.push(await once(path, body));
      withCohort.push(await once(path, filtered));
    }
    const ratio = median(withCohort) / median(without);
    if (ratio > 1.5) failed = true;
    console.log(`${name.padEnd(22)}${median(without).toFixed(0).padStart(12)}${median(withCohort).toFixed(0).padStart(17)}${ratio.toFixed(2).padStart(8)}   ≤ 1.5 ${ratio <= 1.5 ? 'ok' : 'MISSED'}`);
  }
  const split = await time('trend', { ...trend, breakdown: ['all', pro.id, buyers.id], breakdown_type: 'cohort' });
  console.log(`trend by 3 cohorts (all, ${pro.name}, ${buyers.name}): ${split.toFixed(0)} ms`);
} finally {
  child.kill('SIGTERM');
  if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
