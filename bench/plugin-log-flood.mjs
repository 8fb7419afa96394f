// A source plugin that prints 3,000 log lines for every event, and GET /api/organizations/ beside it:
// 20 connections (autocannon) alone, then while events arrive at --rate events/s for the plugin.
// Before log lines were batched and capped, each line was one SQLite write and every request
// waited behind them.
// Usage: node bench/plugin-log-flood.mjs [--seconds 10] [--rate 20] [--lines 3000]
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { withServer } from './api-lib.mjs';

const { values } = parseArgs({
  options: { seconds: { type: 'string' }, rate: { type: 'string' }, lines: { type: 'string' } },
});
const seconds = Number(values.seconds ?? 10);
const rate = Number(values.rate ?? 20);
const linesPerEvent = Number(values.lines ?? 3000);

await withServer('log-flood', async ({ url, key }) => {
  const api = async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
  const org = (await api('GET', '/api/organizations/')).results.find((o) => o.name === 'Hedgebox');
  const project = org.teams[0];
  const token = (await api('GET', `/api/projects/${project.id}/`)).api_token;
  const PRJ = `/api/projects/${project.id}`;
  const plugin = await api('POST', `/api/organizations/${org.id}/pipeline_destinations/`, {
    plugin_type: 'source',
    name: 'Chatty',
  });
  await api('PATCH', `/api/organizations/${org.id}/pipeline_destinations/${plugin.id}/update_source/`, {
    'index.ts': `export function onEvent(event) { for (let i = 0; i < ${linesPerEvent}; i++) console.log('line ' + i + ' of ' + event.uuid) }\n`,
  });
  const config = await api('POST', `${PRJ}/plugin_configs/`, {
    plugin: plugin.id,
    enabled: true,
    config: { url: 'https://example.com/unused' },
  });

  const load = () =>
    new Promise((resolve, reject) => {
      autocannon(
        {
          url: `${url}/api/organizations/`,
          connections: 20,
          duration: seconds,
          headers: { Authorization: `Bearer ${key}` },
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
  const print = (label, r) =>
    console.log(
      `${label.padEnd(34)} p50 ${String(r.latency.p50).padStart(4)} ms  p99 ${String(r.latency.p99).padStart(4)} ms  max ${String(r.latency.max).padStart(5)} ms  req/s ${r.requests.average.toFixed(0)}  non-2xx ${r.non2xx}`,
    );

  print('alone', await load());
  let sent = 0;
  const sender = setInterval(() => {
    sent += 1;
    fetch(`${url}/batch/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: token, batch: [{ event: 'flood', distinct_id: `d${sent}` }] }),
    }).catch(() => {});
  }, 1000 / rate);
  const during = await load();
  clearInterval(sender);
  print(`during ${rate} events/s × ${linesPerEvent} lines`, during);
  const logs = await api('GET', `${PRJ}/plugin_configs/${config.id}/logs/?limit=1`);
  const metrics = (await api('GET', `${PRJ}/plugin_configs/${config.id}/`)).metrics;
  console.log(
    `events sent ${sent}, delivered ${metrics.delivered}, failed ${metrics.failed}; log entries kept ${logs.count}`,
  );
  console.log(`target p99 ≤ 50 ms during the flood: ${during.latency.p99 <= 50 ? 'ok' : 'MISSED'}`);
});
