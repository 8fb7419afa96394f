import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.API_TARGET ?? 'http://localhost:8000';

export default defineConfig({
  plugins: [
    // The router plugin must come before react().
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    tailwindcss(),
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
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry loads statically (react, react-dom, router, query, zod, the
            // shell's src/lib and src/components, the generated route tree) is needed on every
            // route anyway: keep it in one chunk instead of many small shared chunks that
            // compress worse. `$initial` only captures that static closure, so route-only code
            // stays in the routes' split chunks.
            { name: 'shell', tags: ['$initial'] },
          ],
        },
      },
    },
  },
});
