// Group aggregation's cost: a trend (unique companies vs unique persons) and a funnel (companies
// vs persons converting) on seeded demo events, each query by group beside the same query by
// person, the two alternating run by run (median of N runs, result cache off), and the ratio.
// Target: aggregating by a group type costs at most 1.5× the same analysis by person
// (docs/api.md, "Groups": the group's key is read from the event, funnels group by its integer key).
// Usage: node bench/groups.mjs [--events 1000000] [--runs 10] [--data-dir DIR]
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
const dataDir = seededDataDir(args.events, args['data-dir'], 'bench-groups-');
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
  const types = await call('GET', `${prj}/groups_types/`);
  const company = types.find((t) => t.group_type === 'company');
  if (!company) throw new Error('the seeded project has no company group type');
  const companies = await call('GET', `${prj}/groups/?group_type_index=${company.group_type_index}&limit=1`);
  console.log(`group type "company" is ${company.group_type_index}; ${companies.count} companies`);

  const byCompany = { aggregation_group_type_index: company.group_type_index };
  const trend = { events: ['$pageview', 'user signed up', 'purchase'].map((id) => ({ id, math: 'dau' })), date_from: '-30d', interval: 'day' };
  const funnel = { events: ['$pageview', 'user signed up', 'created project', 'purchase'].map((id, order) => ({ id, order })), date_from: '-90d' };
  const PAIRS = [
    ['trend, dau', 'trend', trend],
    ['trend, weekly active', 'trend', { ...trend, events: [{ id: '$pageview', math: 'weekly_active' }] }],
    ['funnel', 'funnel', funnel],
    // A filter every event passes: the person funnel then reads SQL too, not the in-memory person index.
    ['funnel, both by SQL', 'funnel', { ...funnel, properties: [{ key: '$browser', type: 'event', operator: 'is_not', value: 'no such browser' }] }],
    ['retention', 'retention', { target_entity: { id: '$pageview' }, returning_entity: { id: '$pageview' }, period: 'Week', total_intervals: 8 }],
  ];
  const once = async (path, body) => {
    const start = performance.now();
    const json = await call('POST', `${prj}/insights/${path}/`, body);
    if (json.is_cached) throw new Error('cached');
    return performance.now() - start;
  };
  console.log(`\nmedian of ${runs} runs each, cache off, the two queries alternating (a busy machine slows both alike)`);
  console.log('query                   by person ms   by company ms   ratio   target');
  for (const [name, path, body] of PAIRS) {
    const grouped = { ...body, ...byCompany };
    await once(path, body);
    await once(path, grouped);
    const persons = [];
    const groups = [];
    for (let i = 0; i < runs; i++) {
      persons.push(await once(path, body));
      groups.push(await once(path, grouped));
    }
    const ratio = median(groups) / median(persons);
    if (ratio > 1.5) failed = true;
    console.log(`${name.padEnd(22)}${median(persons).toFixed(0).padStart(14)}${median(groups).toFixed(0).padStart(16)}${ratio.toFixed(2).padStart(8)}   ≤ 1.5 ${ratio <= 1.5 ? 'ok' : 'MISSED'}`);
  }
} finally {
  child.kill('SIGTERM');
  if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
