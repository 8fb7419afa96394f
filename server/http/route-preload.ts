import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The first route's code, named in the page itself. The build (scripts/route-preload.ts) writes
 * `.vite/route-preload.json`, the table of route patterns and the chunks each needs, and marks
 * the small script that would add them from the browser (`data-route-preload`). Serving
 * index.html for a path, this server puts `<link rel="modulepreload">` tags for that path's
 * chunks in place of the script: the browser fetches them as it reads the page, one round trip
 * and one main-thread task sooner. Any other host serves index.html as built, and the script
 * does the same work there.
 */
export interface RoutePreloadTable {
  base: string;
  table: Array<[string, string[]]>;
}

const SCRIPT_TAG = /<script async data-route-preload src="[^"]*"><\/script>/;

export async function readRoutePreloads(staticRoot: string): Promise<RoutePreloadTable | undefined> {
  try {
    return JSON.parse(await fs.readFile(path.join(staticRoot, '.vite', 'route-preload.json'), 'utf8')) as RoutePreloadTable;
  } catch {
    return undefined;
  }
}

/**
 * `html` without the script and with the links `pathname` needs at the end of its head, after
 * the entry script and the stylesheet, which the first paint needs more. Unchanged when the page
 * has no such script.
 */
export function withRoutePreloads(html: string, { base, table }: RoutePreloadTable, pathname: string): string {
  if (!SCRIPT_TAG.test(html) || !html.includes('</head>')) return html;
  const files = new Set<string>();
  for (const [pattern, chunks] of table) if (new RegExp(pattern).test(pathname)) chunks.forEach((file) => files.add(file));
  const links = [...files].map((file) => `    <link rel="modulepreload" href="${base}${file}">\n`).join('');
  return html.replace(/\s*<script async data-route-preload src="[^"]*"><\/script>/, '').replace(/\n?[ \t]*<\/head>/, () => `\n${links}  </head>`);
}
