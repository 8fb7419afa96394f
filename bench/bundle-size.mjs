// Initial JavaScript (gzip) per route, from the production build's manifest: the entry chunk,
// everything it imports statically, and the route's own split chunks with their static imports.
// Target: ≤ 150 kB for the sign-in and organizations routes (React 19 and react-dom are about
// 60 kB of it), with no chart code in them.
// Usage: npm run build && node bench/bundle-size.mjs
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from '../scripts/lib.mjs';

const TARGET_KB = 150;
const ROUTES = {
  'sign-in': ['src/routes/sign-in.tsx'],
  organizations: ['src/routes/_authed.tsx', 'src/routes/_authed/organizations/index.tsx'],
};
// Strings only the libraries' own code holds (a file name such as recharts-chart-….js in the
// entry's preload map is not their code): recharts' class names, react-simple-maps', dnd-kit's ids.
const CHART_MARKERS = ['recharts-wrapper', 'recharts-surface', 'rsm-geograph', 'DndDescribedBy'];

const dist = process.env.DIST ?? join(root, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error('No build manifest: run `npm run build` first.');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest[key].imports ?? [], seen);
  }
  return seen;
}

const entry = Object.keys(manifest).filter((key) => manifest[key].isEntry);
let failed = false;
for (const [route, files] of Object.entries(ROUTES)) {
  // A route file is split into chunks keyed `<file>?tsr-split=…`; take them all.
  const routeKeys = Object.keys(manifest).filter((key) =>
    files.some((file) => key === file || key.startsWith(`${file}?`)),
  );
  if (routeKeys.length === 0) {
    console.error(`${route}: no chunk found for ${files.join(', ')}`);
    failed = true;
    continue;
  }
  const chunks = [...closure([...entry, ...routeKeys])].map((key) => manifest[key].file);
  let gzip = 0;
  let raw = 0;
  let charts = false;
  for (const file of new Set(chunks)) {
    const code = readFileSync(join(dist, file));
    raw += code.length;
    gzip += gzipSync(code, { level: 9 }).length;
    if (CHART_MARKERS.some((marker) => code.includes(marker))) charts = true;
  }
  const kb = gzip / 1024;
  const verdict = kb <= TARGET_KB && !charts ? 'ok' : 'OVER';
  if (verdict !== 'ok') failed = true;
  console.log(
    `${route.padEnd(14)} ${String(new Set(chunks).size).padStart(2)} chunks  ${(raw / 1024).toFixed(1).padStart(7)} kB raw  ${kb.toFixed(1).padStart(6)} kB gzip  chart/map/drag code: ${charts ? 'YES' : 'no'}  target ≤ ${TARGET_KB} kB: ${verdict}`,
  );
}
process.exit(failed ? 1 : 0);
