// GET {PRJ}/insights/ (a page of 100 of 1,000 saved insights, and a search) at 50 connections on
// loopback, against a real reference server process with a fresh seeded data dir; the 1,000
// insights are created through the API first, without and with a browser's Accept-Encoding.
// Prints requests/s and latency percentiles, each beside the floor: the same answer served by a
// bare node:http server under the same load (bench/floor-server.mjs).
// Target: p99 ≤ 20 ms. Usage: node bench/api-insights.mjs [seconds]
import autocannon from 'autocannon';
import { report, reportFloor, withFloor, withServer } from './api-lib.mjs';

const duration = Number(process.argv[2] ?? 10);
const TOTAL = 1000;

await withServer('insights', async ({ url, key }) => {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const orgs = await (await fetch(`${url}/api/organizations/`, { headers })).json();
  const projectId = orgs.results[0].teams[0].id;
  const base = `${url}/api/projects/${projectId}/insights/`;
  const existing = (await (await fetch(base, { headers })).json()).count;
  for (let i = existing; i < TOTAL; i += 1) {
    const res = await fetch(base, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: `Insight ${i}`,
        description: `Weekly numbers ${i % 17}`,
        tags: [`team-${i % 5}`],
        favorited: i % 9 === 0,
        saved: true,
        filters: {
          insight: 'TRENDS',
          events: [{ id: i % 2 ? '$pageview' : 'signup' }],
          date_from: '-30d',
          display: 'ActionsLineGraph',
        },
      }),
    });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  }
  // A browser always offers compression; a script often does not: both are measured.
  const browser = { ...headers, 'accept-encoding': 'gzip, deflate, br' };
  for (const [label, target, sent] of [
    ['page of 100, no encoding', `${base}?limit=100`, headers],
    ['page of 100, Accept-Encoding: gzip, deflate, br', `${base}?limit=100`, browser],
    ['search (59 of them), Accept-Encoding: gzip, deflate, br', `${base}?search=numbers%2012&limit=100`, browser],
  ]) {
    const { count } = await (await fetch(target, { headers })).json();
    if (count === 0) throw new Error(`${label}: nothing matches ${target}`);
    await autocannon({ url: target, headers: sent, connections: 10, amount: 300 });
    const ours = await autocannon({ url: target, headers: sent, connections: 50, duration });
    report(`GET {PRJ}/insights/ ${label} (${TOTAL} insights)`, ours, duration);
    const floor = await withFloor(target, sent, async (floorUrl) => {
      await autocannon({ url: floorUrl, headers: sent, connections: 10, amount: 300 });
      return autocannon({ url: floorUrl, headers: sent, connections: 50, duration });
    });
    reportFloor(ours, floor);
  }
});
