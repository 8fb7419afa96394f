import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { chooseEncoding, compressBytes, FILE_SUFFIX, type Encoding } from './compression.ts';
import { readRoutePreloads, withRoutePreloads } from './route-preload.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NOT_BUILT_MESSAGE =
  'The dashboard has not been built yet: run `npm run build` (or `npm start`, which builds it), then reload.\n' +
  'The API is served under /api meanwhile.\n';

async function fileAt(file: string): Promise<Buffer | undefined> {
  try {
    const stat = await fs.stat(file);
    return stat.isFile() ? await fs.readFile(file) : undefined;
  } catch {
    return undefined;
  }
}

/** Text files the build pre-compresses (vite.config.ts writes `.br` and `.gz` beside them). */
export const PRECOMPRESSED = /\.(html|js|mjs|css|json|webmanifest|svg|txt)$/i;

/**
 * `file` as the client accepts it: its `.br` or `.gz` sibling made by the build when the client
 * takes that encoding (or, for bytes made for this request, `encode` compressing them), else the
 * plain bytes; `Vary: Accept-Encoding` on every text file.
 */
async function send(
  c: Context,
  file: string,
  data: Uint8Array,
  cacheControl: string,
  encode: (encoding: Encoding) => Promise<Uint8Array | undefined> = (encoding) => fileAt(file + FILE_SUFFIX[encoding]),
): Promise<Response> {
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const headers: Record<string, string> = { 'Content-Type': type, 'Cache-Control': cacheControl };
  if (!PRECOMPRESSED.test(file)) return c.body(new Uint8Array(data), 200, headers);
  headers.Vary = 'Accept-Encoding';
  const encoding = chooseEncoding(c.req.header('accept-encoding'));
  const encoded = encoding ? await encode(encoding) : undefined;
  if (encoding && encoded) {
    return c.body(new Uint8Array(encoded), 200, {
      ...headers,
      'Content-Encoding': encoding,
      'Content-Length': String(encoded.byteLength),
    });
  }
  return c.body(new Uint8Array(data), 200, { ...headers, 'Content-Length': String(data.byteLength) });
}

/**
 * Serves the built SPA: files of `staticDir`; hashed `/assets/*` cached forever; any other GET
 * that accepts HTML gets index.html (client-side routes). 503 in plain text when not built.
 */
export function createStaticHandler(staticDir: string) {
  const root = path.resolve(staticDir);
  const index = path.join(root, 'index.html');

  return async (c: Context): Promise<Response> => {
    let relative: string;
    try {
      relative = decodeURIComponent(c.req.path);
    } catch {
      return c.text('Not found.\n', 404);
    }
    const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
    const inside = file === root || file.startsWith(root + path.sep);
    const isAsset = c.req.path.startsWith('/assets/');
    // Source maps are never served, even from a dist/ left by an older build that made them.
    if (path.extname(file).toLowerCase() === '.map') return c.text('Not found.\n', 404);
    if (inside && file !== root) {
      const data = await fileAt(file);
      if (data) return send(c, file, data, isAsset ? IMMUTABLE : 'no-cache');
    }
    const indexHtml = await fileAt(index);
    if (!indexHtml) return c.text(NOT_BUILT_MESSAGE, 503);
    const acceptsHtml = (c.req.header('accept') ?? '').includes('text/html');
    if (isAsset || !acceptsHtml) return c.text('Not found.\n', 404);
    const preloads = await readRoutePreloads(root);
    if (!preloads) return send(c, index, indexHtml, 'no-cache');
    // The page names this path's chunks itself: made per request, so compressed per request.
    const page = new TextEncoder().encode(withRoutePreloads(indexHtml.toString('utf8'), preloads, c.req.path));
    return send(c, index, page, 'no-cache', (encoding) => compressBytes(page, encoding));
  };
}
