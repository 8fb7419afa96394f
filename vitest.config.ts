import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': fileURLToPath(new URL('./src', import.meta.url)),
  // Component-test helpers (they run the reference server, so they live outside src/).
  '@testing': fileURLToPath(new URL('./test/testing', import.meta.url)),
};

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: ['test/server/**/*.test.ts', 'test/analytics/**/*.test.ts', 'test/fuzz/**/*.test.ts', 'server/**/*.test.ts', 'src/contract/**/*.test.ts', 'src/lib/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['test/setup-web.ts'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
