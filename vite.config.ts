import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { routePreload } from './scripts/route-preload';
import { THEME_SCRIPT } from './server/http/theme-script';

const apiTarget = process.env.API_TARGET ?? 'http://localhost:8000';

/** The text files the server sends pre-compressed (server/http/static.ts: PRECOMPRESSED). */
const TEXT_ASSET = /\.(html|js|mjs|css|json|webmanifest|svg|txt)$/i;

/**
 * After the build, every text file of the output (1 kB or more) gets a `.br` (brotli, best
 * quality: done once, served many times) and a `.gz` sibling; the server picks one by the
 * request's Accept-Encoding. Node's zlib does the work.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
    );
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!TEXT_ASSET.test(file) || statSync(file).size < 1024) continue;
        const data = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/** The page's first script (src/warm-up.ts): an entry of its own. */
const WARM_UP_ENTRY = 'src/warm-up.ts';

/**
 * Loads src/warm-up.ts `async` at the top of the page's head, before the stylesheet and the app's
 * entry: it imports nothing, so it runs as soon as it arrives. In the build it is an entry of its
 * own (`build.rolldownOptions.input`), in development the dev server serves it as it is. Low fetch
 * priority: Lighthouse's model counts a high-priority script as blocking the first paint (its
 * simulated first paint went from 1.30 to 1.43 s at the default priority, 1.26–1.28 s at low).
 */
function warmUpScript(): Plugin {
  let base = '/';
  return {
    name: 'warm-up-script',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, server }) {
        const chunk = Object.values(bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith(WARM_UP_ENTRY),
        );
        const src = server ? `${base}${WARM_UP_ENTRY}` : chunk ? `${base}${chunk.fileName}` : null;
        if (!src) throw new Error(`warm-up-script: ${WARM_UP_ENTRY} is not an entry of the build`);
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, fetchpriority: 'low', 'data-warm-up': true, src },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

/** The stored theme on <html> before the first paint (server/http/theme-script.ts). */
function themeScript(): Plugin {
  return {
    name: 'theme-script',
    transformIndexHtml: () => [{ tag: 'script', children: THEME_SCRIPT, injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  plugins: [
    // Before react(): the router's code splitting must see the route files as written.
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    // Before precompress: it writes index.html and a script that compression then picks up.
    warmUpScript(),
    themeScript(),
    routePreload(),
    precompress(),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    // No source maps in the shipped build: they would publish the whole source (dev serves its own).
    sourcemap: false,
    manifest: true,
    // Every browser the dashboard supports has <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      input: { index: 'index.html', 'warm-up': WARM_UP_ENTRY },
      // Libraries made for React Server Components mark their modules "use client"; a client-only
      // bundle has nothing to keep it for.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry loads statically (react, react-dom, router, query, zod, the
            // shell's src/lib and src/components, the generated route tree) is needed on every
            // route anyway: keep it in one chunk instead of many small shared chunks that
            // compress worse. `$initial` only captures that static closure, so route-only code
            // stays in the routes' split chunks.
            // (Not src/warm-up.ts, the page's first script: it must stay alone in its own chunk.)
            { name: 'shell', tags: ['$initial'], test: /^(?!.*[\\/]src[\\/]warm-up\.ts$)/ },
            // Small modules many routes share, whose own imports are all in the shell: one chunk
            // each instead of one per set of routes sharing them. A page's scripts come over at
            // most 6 connections (HTTP/1.1), so on a phone every 6 more files cost a round trip
            // before the page can draw: the batch-exports list fetched 21 scripts, now 15.
            { name: 'icons', test: /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/, minShareCount: 2 },
            { name: 'query', test: /@tanstack[\\/](react-query|query-core)[\\/]/, minShareCount: 2 },
          ],
        },
      },
    },
  },
});
