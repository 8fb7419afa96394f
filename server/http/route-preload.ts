import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The first route's code, named in the page itself. The build (scripts/route-preload.ts) writes
 * `.vite/route-preload.json`, the table of route patterns and the chunks each needs, and marks
 * the small script that would add them from the browser (`data-route-preload`). Serving
 * index.html for a path, this server puts `<link rel="modulepreload">` tags for that path's
 * chunks in place of the script (at low priority, as the script asks: see
 * scripts/route-preload.ts): the browser fetches them as it reads the page, one round trip and
 * one main-thread task sooner. Any other host serves index.html as built, and the script does
 * the same work there. A table that is missing, malformed or from another build than the page
 * is not used: the page goes out as built.
 */
export interface RoutePreloadTable {
  base: string;
  /** The preload script's file (under `base`) of the build that wrote the table. */
  script: string;
  routes: Array<[RegExp, string[]]>;
}

const SCRIPT_TAG = /\s*<script async data-route-preload src="([^"]*)"><\/script>/;

function parseTable(text: string): RoutePreloadTable | undefined {
  try {
    const data = JSON.parse(text) as { base?: unknown; script?: unknown; table?: unknown };
    const { base, script, table } = data ?? {};
    if (typeof base !== 'string' || typeof script !== 'string' || !Array.isArray(table)) return undefined;
    const routes: RoutePreloadTable['routes'] = [];
    for (const row of table as unknown[]) {
      if (
        !Array.isArray(row) ||
        typeof row[0] !== 'string' ||
        !Array.isArray(row[1]) ||
        !row[1].every((f) => typeof f === 'string')
      )
        return undefined;
      routes.push([new RegExp(row[0]), row[1] as string[]]);
    }
    return { base, script, routes };
  } catch {
    return undefined;
  }
}

/** Read once per version of the file (its modification time), not on every page. */
const cache = new Map<string, { mtimeMs: number; table: RoutePreloadTable | undefined }>();

export async function readRoutePreloads(staticRoot: string): Promise<RoutePreloadTable | undefined> {
  const file = path.join(staticRoot, '.vite', 'route-preload.json');
  try {
    const { mtimeMs } = await fs.stat(file);
    const cached = cache.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached.table;
    const table = parseTable(await fs.readFile(file, 'utf8'));
    cache.set(file, { mtimeMs, table });
    return table;
  } catch {
    return undefined;
  }
}

/**
 * `html` without the script and with the links `pathname` needs at the end of its head, after
 * the entry script and the stylesheet, which the first paint needs more. Unchanged when the page
 * has no such script, or one of another build than the table's.
 */
export function withRoutePreloads(html: string, { base, script, routes }: RoutePreloadTable, pathname: string): string {
  const tag = SCRIPT_TAG.exec(html);
  if (!tag || tag[1] !== `${base}${script}` || !html.includes('</head>')) return html;
  const files = new Set<string>();
  for (const [pattern, chunks] of routes) if (pattern.test(pathname)) chunks.forEach((file) => files.add(file));
  const links = [...files]
    .map((file) => `    <link rel="modulepreload" fetchpriority="low" href="${base}${file}">\n`)
    .join('');
  return html.replace(SCRIPT_TAG, '').replace(/\n?[ \t]*<\/head>/, () => `\n${links}  </head>`);
}
