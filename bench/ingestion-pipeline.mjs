// Ingestion with destinations, against a real reference server process:
//   1. throughput: events/s accepted by /batch/ (batches of --batch events, 10 connections,
//      autocannon) with no destination enabled, then with three (the webhook, Slack and the
//      seeded source plugin, whose onEvent runs in the sandbox and fetches), all delivering to
//      a receiver this script runs. Target: with three ≥ 80 % of none.
//   2. delivery lag: events sent at --rate events/s for --seconds; each event's distinct_id
//      carries its send time, the receiver notes its arrival per destination. Target p99 ≤ 2 s.
// Each throughput line also gives the CPU time the server and the receiver used per 1,000
// accepted events, and how busy the whole machine was (another process's load shows there).
// The receiver runs in a child process of its own, so its work does not slow this one's sending.
// Usage: node bench/ingestion-pipeline.mjs [--seconds 15] [--batch 50] [--rate 1000]
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startServer } from '../scripts/lib.mjs';

/** CPU time (ms, all threads) a process has used so far, from /proc (null where there is none). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return null;
  }
}

/** The machine's busy and total CPU time so far, from /proc/stat (null where there is none). */
function machineCpu() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - f[3] - f[4], total }; // idle and iowait are not busy
  } catch {
    return null;
  }
}

// The receiver (child process): counts what arrives per path; for 'lag' events, the delay.
if (process.argv[2] === '--receiver') {
  const arrivals = { hook: [], slack: [], source: [] };
  let count = { hook: 0, slack: 0, source: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const now = Date.now();
      const path = req.url.slice(1);
      res.writeHead(200).end('ok');
      if (!(path in count)) return;
      count[path] += 1;
      const sent = /lag-(\d+)-/.exec(body);
      if (sent) arrivals[path].push(now - Number(sent[1]));
    });
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', (m) => {
    if (m === 'reset') {
      for (const k of Object.keys(arrivals)) arrivals[k] = [];
      count = { hook: 0, slack: 0, source: 0 };
      process.send({ reset: true });
    }
    if (m === 'report') process.send({ count, arrivals });
  });
} else {
  await main();
}

async function main() {
  const { values: args } = parseArgs({
    options: {
      seconds: { type: 'string', default: '15' },
      batch: { type: 'string', default: '50' },
      rate: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '2' },
    },
  });
  const SECONDS = Number(args.seconds);
  const BATCH = Number(args.batch);
  const RATE = Number(args.rate);

  const receiver = fork(fileURLToPath(import.meta.url), ['--receiver']);
  const { port } = await new Promise((r) => receiver.once('message', r));
  const ask = (m) =>
    new Promise((r) => {
      receiver.once('message', r);
      receiver.send(m);
    });
  const sink = `http://127.0.0.1:${port}`;

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ingestion-'));
  const { child, url, key } = await startServer(
    ['--port', '0', '--data-dir', dataDir, '--allow-destination', '127.0.0.1'],
    {
      env: { ...process.env, LOG_REQUESTS: '0', SEED_EVENTS: '0' },
      quiet: true,
    },
  );
  const api = async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };

  try {
    const org = (await api('GET', '/api/organizations/?limit=100')).results.find((o) => o.name === 'Hedgebox');
    const project = (await api('GET', '/api/projects/?limit=100')).results.find((p) => p.organization === org.id);
    const PRJ = `/api/projects/${project.id}`;
    const plugins = (await api('GET', `/api/organizations/${org.id}/pipeline_destinations/?limit=100`)).results;
    const byName = (name) => plugins.find((p) => p.name === name);
    const configs = (await api('GET', `${PRJ}/plugin_configs/?limit=100`)).results;
    for (const c of configs) if (c.enabled) await api('PATCH', `${PRJ}/plugin_configs/${c.id}/`, { enabled: false });

    // The seeded source plugin is compiled when its source is saved.
    const source = byName('Signup forwarder');
    await api(
      'PATCH',
      `/api/organizations/${org.id}/pipeline_destinations/${source.id}/update_source/`,
      await api('GET', `/api/organizations/${org.id}/pipeline_destinations/${source.id}/source/`),
    );
    const wanted = [
      [byName('Webhook'), { url: `${sink}/hook` }],
      [byName('Slack notifications'), { webhook_url: `${sink}/slack`, events: 'bench_event', message: '{person}' }],
      [source, { url: `${sink}/source` }],
    ];
    const enableAll = async (enabled) => {
      for (const [plugin, config] of wanted) {
        const existing =
          configs.find((c) => c.plugin === plugin.id) ??
          (await api('GET', `${PRJ}/plugin_configs/?plugin=${plugin.id}`)).results[0];
        if (existing) await api('PATCH', `${PRJ}/plugin_configs/${existing.id}/`, { enabled, config });
        else if (enabled) await api('POST', `${PRJ}/plugin_configs/`, { plugin: plugin.id, enabled, config });
      }
    };

    let seq = 0;
    const batchBody = (prefix) =>
      JSON.stringify({
        api_key: project.api_token,
        batch: Array.from({ length: BATCH }, () => ({
          event: 'bench_event',
          distinct_id: `${prefix}-${Date.now()}-${seq++}`,
          properties: { $current_url: 'https://hedgebox.example/bench', plan: 'pro' },
        })),
      });
    // CPU used per 1,000 accepted events while autocannon runs (the deliveries of those events
    // may finish after it: what the receiver and server spend then is not counted).
    const cpuPerThousand = (before, after, events) =>
      before === null || after === null ? '?' : `${(((after - before) / events) * 1000).toFixed(0)} ms`;
    const throughput = async (label) => {
      const cpu0 = [cpuMs(child.pid), cpuMs(receiver.pid)];
      const machine0 = machineCpu();
      const result = await autocannon({
        url: `${url}/batch/`,
        method: 'POST',
        connections: 10,
        duration: SECONDS,
        headers: { 'Content-Type': 'application/json' },
        body: batchBody('tp'),
      });
      const cpu1 = [cpuMs(child.pid), cpuMs(receiver.pid)];
      const machine1 = machineCpu();
      const busy =
        machine0 && machine1
          ? `${(((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100).toFixed(0)} %`
          : '?';
      const eventsPerSecond = result.requests.average * BATCH;
      const events = result.requests.total * BATCH;
      console.log(
        `${label.padEnd(22)} ${Math.round(eventsPerSecond).toLocaleString('en').padStart(8)} events/s  (${result.requests.average.toFixed(0)} batches/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}; CPU per 1,000 events: server ${cpuPerThousand(cpu0[0], cpu1[0], events)}, receiver ${cpuPerThousand(cpu0[1], cpu1[1], events)}; machine busy ${busy})`,
      );
      return { eventsPerSecond, events };
    };
    // Waits until every destination has all `expected` events (or, when that is not given or
    // some were dropped, until nothing more arrives for 5 s); returns the seconds it waited.
    const settle = async (expected) => {
      const started = Date.now();
      let last = -1;
      let still = 0;
      for (;;) {
        const { count } = await ask('report');
        const values = Object.values(count);
        if (expected !== undefined && values.every((n) => n >= expected)) break;
        const total = values.reduce((a, b) => a + b, 0);
        still = total === last ? still + 1 : 0;
        if (still >= (expected === undefined ? 1 : 5) || Date.now() - started > 300_000) break;
        last = total;
        await new Promise((r) => setTimeout(r, 1000));
      }
      return (Date.now() - started) / 1000;
    };

    console.log(`/batch/ throughput, ${BATCH} events a batch, 10 connections, ${SECONDS} s each (server at ${url})`);
    const rows = [];
    for (let round = 1; round <= Number(args.rounds); round += 1) {
      await enableAll(false);
      await new Promise((r) => setTimeout(r, 500));
      const none = (await throughput(`round ${round}  none`)).eventsPerSecond;
      await enableAll(true);
      await new Promise((r) => setTimeout(r, 500));
      await ask('reset');
      const { eventsPerSecond: three, events } = await throughput(`round ${round}  three`);
      const waited = await settle(events);
      const { count } = await ask('report');
      console.log(
        `  of ${events.toLocaleString('en')} accepted, delivered: webhook ${count.hook.toLocaleString('en')}, Slack ${count.slack.toLocaleString('en')}, source ${count.source.toLocaleString('en')}; the last ${waited.toFixed(0)} s after the burst`,
      );
      rows.push(three / none);
    }
    console.log(`three ÷ none: ${rows.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')}  (target ≥ 80 %)`);

    // Lag at a steady rate.
    await enableAll(true);
    await ask('reset');
    const perTick = Math.max(1, Math.round(RATE / 20));
    const started = Date.now();
    let sent = 0;
    const sending = [];
    while (Date.now() - started < SECONDS * 1000) {
      const tick = Date.now();
      const body = JSON.stringify({
        api_key: project.api_token,
        batch: Array.from({ length: perTick }, (_, i) => ({
          event: 'bench_event',
          distinct_id: `lag-${Date.now()}-${i}`,
        })),
      });
      // Sent on the clock, not after the previous answer: the rate holds even when answers are slow.
      sending.push(
        fetch(`${url}/batch/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }).then((res) =>
          res.arrayBuffer(),
        ),
      );
      sent += perTick;
      await new Promise((r) => setTimeout(r, Math.max(0, 50 - (Date.now() - tick))));
    }
    const rate = sent / ((Date.now() - started) / 1000);
    await Promise.all(sending);
    await settle(sent);
    const { arrivals } = await ask('report');
    const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
    console.log(
      `delivery lag at ${Math.round(rate).toLocaleString('en')} events/s for ${SECONDS} s (${sent.toLocaleString('en')} events), send → arrival at the receiver:`,
    );
    for (const [name, xs] of Object.entries(arrivals)) {
      xs.sort((a, b) => a - b);
      console.log(
        `  ${name.padEnd(7)} delivered ${xs.length.toLocaleString('en').padStart(7)}  p50 ${pct(xs, 50)} ms  p99 ${pct(xs, 99)} ms  max ${xs.at(-1)} ms  ${pct(xs, 99) <= 2000 && xs.length === sent ? 'ok' : 'MISSED'}`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    receiver.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
