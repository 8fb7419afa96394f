import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The first route's code, fetched while the entry script downloads.
 *
 * Routes are split into chunks that the router imports once the entry has run, so a cold load is
 * three waves: the entry, then the matched routes' chunks, then their data. This build step
 * writes a small script, loaded `async` from index.html next to the entry (the CSP allows no
 * inline script), that matches `location.pathname` against every route file's path and adds a
 * `<link rel="modulepreload">` for each chunk the matched routes load (component, loader and
 * pending component, with their static imports: the router loads a route's pending component
 * with its component before it shows the route; not the error and not-found components, and
 * nothing the entry already holds). The router then finds those modules in the cache.
 *
 * The links ask for low priority: the stylesheet and the entry script come first (the page draws
 * nothing before them), and the route's chunks share what remains. Lighthouse's model counts
 * high-priority scripts as blocking the first paint: the batch-exports page's first contentful
 * paint went from 2.0–2.5 s to 1.25–1.4 s with low priority (three runs each). In Chromium
 * throttled as a phone the first row came as soon either way (medians of six: 2.50 s, 2.45 s).
 */

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * The path a route file serves, as a regular expression source: `$param` matches one segment,
 * `_layout` segments add nothing, an `index` file matches its folder exactly and any other file
 * also matches what lies below it (it may be the layout of its folder's routes).
 */
export function routePattern(file: string): string | null {
  const match = /^src\/routes\/(.+)\.tsx$/.exec(file);
  if (!match) return null;
  const segments = match[1]!.split('/');
  const last = segments.pop()!;
  if (last === '__root') return '^/';
  const path = segments.filter((s) => !s.startsWith('_')).map((s) => (s.startsWith('$') ? '[^/]+' : escapeRegExp(s)));
  const exact = last === 'index';
  if (!exact && last !== 'route' && !last.startsWith('_'))
    path.push(last.startsWith('$') ? '[^/]+' : escapeRegExp(last));
  const prefix = path.length ? `/${path.join('/')}` : '';
  return exact ? `^${prefix}/?$` : `^${prefix}(/|$)`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Route pattern → chunk files to preload, from the build manifest. */
export function preloadTable(manifest: Manifest): Array<[string, string[]]> {
  const closure = (keys: string[], seen: Set<string>) => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      closure(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const initial = closure(
    Object.keys(manifest).filter((key) => manifest[key]!.isEntry),
    new Set(),
  );
  const chunksOf = new Map<string, Set<string>>();
  for (const key of Object.keys(manifest)) {
    const [file, query = ''] = key.split('?');
    const split = /tsr-split=([^&]+)/.exec(query)?.[1];
    // Component, loader and pending chunks are fetched to show the route (TanStack Router loads
    // the pending component with the component); error and not-found ones only when needed.
    if (!split || !/(^|-)(component|loader|pendingComponent)(-|$)/.test(split) || !file!.startsWith('src/routes/'))
      continue;
    const chunks = chunksOf.get(file!) ?? new Set<string>();
    for (const dep of closure([key], new Set())) if (!initial.has(dep)) chunks.add(manifest[dep]!.file);
    chunksOf.set(file!, chunks);
  }
  // A pathless layout (`_authed.tsx`) has no path of its own: its chunks go with each route below it.
  const pathless = [...chunksOf.keys()].filter((file) => /\/_[^/]+\.tsx$/.test(file) && !file.endsWith('/__root.tsx'));
  const byRoute = new Map<string, Set<string>>();
  for (const [file, chunks] of chunksOf) {
    const pattern = pathless.includes(file) ? null : routePattern(file);
    if (!pattern) continue;
    const all = byRoute.get(pattern) ?? new Set<string>();
    for (const layout of pathless)
      if (file.startsWith(`${layout.slice(0, -'.tsx'.length)}/`)) chunksOf.get(layout)!.forEach((c) => all.add(c));
    chunks.forEach((c) => all.add(c));
    byRoute.set(pattern, all);
  }
  return [...byRoute].map(([pattern, files]) => [pattern, [...files].sort()]);
}

/**
 * V8's explicit compile hint: a script whose first line is this comment has all its functions
 * compiled eagerly, on a background thread while it downloads, instead of each on the main thread
 * the first time it is called (Chromium 136 and later; other engines read a comment). Measured on
 * the batch-exports page in Lighthouse's phone profile: total blocking time 375–517 ms without,
 * 120–307 ms with (four runs each, alternating).
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * The files a first view runs almost all of: the entry's static closure (the shell) and every
 * chunk the table names for a route (its component, loader and pending chunks with their
 * imports). Not the code loaded later on demand (charts, the code editor, dialogs), most of
 * which a view never calls.
 */
export function firstViewFiles(manifest: Manifest, table: Array<[string, string[]]>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    (chunk.imports ?? []).forEach(visit);
  };
  Object.keys(manifest)
    .filter((key) => manifest[key]!.isEntry)
    .forEach(visit);
  for (const [, chunks] of table) chunks.forEach((file) => files.add(file));
  return [...files].filter((file) => file.endsWith('.js')).sort();
}

/** `code` with the compile hint as its first line (once). */
export function withCompileHint(code: string): string {
  return code.startsWith(COMPILE_HINT) ? code : `${COMPILE_HINT}${code}`;
}

/** The preload script's source: `table` inlined, chunk files numbered once. */
export function preloadScript(table: Array<[string, string[]]>, base: string): string {
  const files = [...new Set(table.flatMap(([, f]) => f))];
  const rows = table.map(([pattern, f]) => [pattern, f.map((file) => files.indexOf(file))]);
  return (
    `(function(){var f=${JSON.stringify(files)},r=${JSON.stringify(rows)},p=location.pathname,s={};` +
    `for(var i=0;i<r.length;i++)if(new RegExp(r[i][0]).test(p))for(var j=0;j<r[i][1].length;j++)s[r[i][1][j]]=1;` +
    `for(var k in s){var l=document.createElement("link");l.rel="modulepreload";l.fetchPriority="low";l.href=${JSON.stringify(base)}+f[k];document.head.appendChild(l)}})();\n`
  );
}

/**
 * Writes `assets/route-preload-<hash>.js` and its `<script async>` in index.html, and the table
 * as `.vite/route-preload.json` for the reference server (after the build, before compression).
 */
export function routePreload(): Plugin {
  let outDir = 'dist';
  let base = '/';
  return {
    name: 'route-preload',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      base = config.base;
    },
    closeBundle() {
      const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
      const table = preloadTable(manifest);
      // Before compression (the precompress plugin runs after this one), after hashing: whether
      // a chunk is marked depends on the routes as well as on its code, so a shared chunk that
      // joins or leaves a first view keeps its name while the line comes or goes. The line is a
      // comment (how to compile, not what runs): a browser holding the other copy runs the same code.
      for (const file of firstViewFiles(manifest, table)) {
        const path = join(outDir, file);
        writeFileSync(path, withCompileHint(readFileSync(path, 'utf8')));
      }
      const source = preloadScript(table, base);
      const name = `assets/route-preload-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      writeFileSync(join(outDir, name), source);
      const indexPath = join(outDir, 'index.html');
      const html = readFileSync(indexPath, 'utf8');
      // Marked, so that a server that knows the path (server/http/route-preload.ts) can put the
      // links themselves in its place; the table it reads sits with the build's manifest.
      const tag = `<script async data-route-preload src="${base}${name}"></script>`;
      // `script` ties the table to this build's page: a table left by another build is not used.
      writeFileSync(join(outDir, '.vite', 'route-preload.json'), JSON.stringify({ base, script: name, table }));
      if (!html.includes('<script type="module"')) throw new Error('route-preload: no entry script in index.html');
      writeFileSync(indexPath, html.replace('<script type="module"', `${tag}\n    <script type="module"`));
    },
  };
}
