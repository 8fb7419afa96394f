// Lighthouse side by side: this app (the reference server serving a build) and a peer's built
// SPA (shadcn-admin: `vite build` of github.com/satnaing/shadcn-admin), run alternately, each
// page `--runs` times (default 3), mobile (simulated throttling) then desktop. Every run is listed.
// Lighthouse is installed by this script into a temporary folder (never a project dependency):
// 13.x where Node allows it (>= 22.19), else 12.8.2 (same performance scoring weights).
// Usage: node bench/lighthouse.mjs <peer-dist-dir> [--ours dist] [--runs 3] [--events 200000]
//        [--peer-pages /,/tasks] [--presets mobile,desktop]
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { root } from '../scripts/lib.mjs';
import { waitForIdleMachine } from './api-lib.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const peerDir = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!peerDir || !existsSync(join(peerDir, 'index.html'))) {
  console.error(
    'usage: node bench/lighthouse.mjs <peer-dist-dir> [--ours dist] [--runs 3]  (the peer dir holds its built index.html)',
  );
  process.exit(2);
}
const oursDir = resolve(root, flag('ours', 'dist'));
const runs = Number(flag('runs', '3'));
const events = flag('events', '200000');
const peerPages = flag('peer-pages', '/,/tasks').split(',');
const presets = flag('presets', 'mobile,desktop').split(',');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';

// Lighthouse, in a temp folder of its own (reused between runs of this script).
const [major, minor] = process.versions.node.split('.').map(Number);
const version = process.env.LIGHTHOUSE_VERSION ?? (major > 22 || (major === 22 && minor >= 19) ? '13' : '12.8.2');
const lhDir = join(tmpdir(), `lighthouse-bench-${version}`);
const lhCli = join(lhDir, 'node_modules', 'lighthouse', 'cli', 'index.js');
if (!existsSync(lhCli)) {
  console.log(`installing lighthouse@${version} into ${lhDir} …`);
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', lhDir, `lighthouse@${version}`], {
    stdio: 'inherit',
  });
}
const lhVersion = JSON.parse(readFileSync(join(lhDir, 'node_modules', 'lighthouse', 'package.json'), 'utf8')).version;

// The peer: a static server with what any production host does (gzip, SPA fallback, immutable assets).
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const peer = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = resolve(peerDir, `.${path}`);
  if (!file.startsWith(resolve(peerDir)) || !existsSync(file) || statSync(file).isDirectory())
    file = join(peerDir, 'index.html');
  let body = readFileSync(file);
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const headers = {
    'content-type': type,
    'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    vary: 'Accept-Encoding',
  };
  if (/text|javascript|json|svg/.test(type) && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
    body = gzipSync(body, { level: 9 });
    headers['content-encoding'] = 'gzip';
  }
  res.writeHead(200, { ...headers, 'content-length': body.length }).end(req.method === 'HEAD' ? undefined : body);
});
await new Promise((r) => peer.listen(0, '127.0.0.1', r));
const peerUrl = `http://127.0.0.1:${peer.address().port}`;

// Ours: the reference server on a fresh data dir (seeded), serving the build.
const dataDir = mkdtempSync(join(tmpdir(), 'lighthouse-data-'));
const port = await new Promise((r) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => r(free));
  });
});
const server = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'server/main.ts',
    'start',
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--static-dir',
    oursDir,
    '--demo-events',
    events,
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const oursUrl = await new Promise((resolveUrl, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(out);
    if (match) resolveUrl(match[1].replace('localhost', '127.0.0.1'));
  });
  server.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
});
const key = readFileSync(join(dataDir, 'demo-key'), 'utf8').trim();
const api = async (path) => (await fetch(`${oursUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })).json();
const org = (await api('/api/organizations/?limit=100')).results.find((o) => o.name === 'Hedgebox');
// The key rides in the fragment, as the server's sign-in link does (Lighthouse resets storage).
const oursPages = [`/organizations#key=${key}`, `/organizations/${org.id}/batch-exports#key=${key}`];

// Each run starts on a quiet machine: the run before it (the peer's pages keep the CPU busy for
// seconds) may still be tearing its Chromium down, and any of that left over lands in the next
// run's blocking time.
const settle = () => waitForIdleMachine(10_000, 'this run may read high');

// A run whose Chromium dies mid-way (it happens to headless Chromium now and then) is run again, up to three times.
async function lighthouse(url, preset) {
  for (let attempt = 1; ; attempt += 1) {
    await settle();
    try {
      return await lighthouseOnce(url, preset);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(
        `  (run failed: ${
          String(error.stderr ?? error.message)
            .trim()
            .split('\n')[0]
        }; again)`,
      );
    }
  }
}

// Asynchronous: the peer's server lives in this process, and must answer while Lighthouse runs.
async function lighthouseOnce(url, preset) {
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    [
      lhCli,
      url,
      '--quiet',
      '--output=json',
      '--only-categories=performance',
      `--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic`,
      ...(preset === 'desktop' ? ['--preset=desktop'] : []),
    ],
    { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', timeout: 180_000 },
  );
  const lhr = JSON.parse(out);
  const num = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round(lhr.categories.performance.score * 100),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (r) =>
  `score ${String(r.score).padStart(3)}  FCP ${(r.fcp / 1000).toFixed(2)} s  LCP ${(r.lcp / 1000).toFixed(2)} s  TBT ${Math.round(r.tbt)} ms  CLS ${r.cls.toFixed(3)}`;
console.log(
  `Lighthouse ${lhVersion}, Chromium ${CHROME}; ours ${oursDir} at ${oursUrl}, peer ${resolve(peerDir)} at ${peerUrl}; ${runs} runs, alternating`,
);
try {
  for (const preset of presets) {
    const results = new Map();
    const pairs = oursPages.map((page, i) => [
      [`ours ${page.replace(/#.*/, '').replace(org.id, '<org>')}`, `${oursUrl}${page}`],
      [`peer ${peerPages[i] ?? peerPages[0]}`, `${peerUrl}${peerPages[i] ?? peerPages[0]}`],
    ]);
    for (let run = 1; run <= runs; run += 1) {
      for (const pair of pairs) {
        for (const [name, url] of pair) {
          const r = await lighthouse(url, preset);
          results.set(name, [...(results.get(name) ?? []), r]);
          console.log(`${preset.padEnd(7)} run ${run}  ${name.padEnd(36)} ${line(r)}`);
        }
      }
    }
    console.log(`— ${preset}, medians —`);
    for (const [name, rs] of results) {
      const m = Object.fromEntries(['score', 'fcp', 'lcp', 'tbt', 'cls'].map((k) => [k, median(rs.map((r) => r[k]))]));
      console.log(`${preset.padEnd(7)} median ${name.padEnd(36)} ${line(m)}`);
    }
  }
} finally {
  server.kill('SIGTERM');
  peer.close();
  rmSync(dataDir, { recursive: true, force: true });
}
