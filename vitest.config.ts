import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': fileURLToPath(new URL('./src', import.meta.url)),
  // Component-test helpers (they run the reference server, so they live outside src/).
  '@testing': fileURLToPath(new URL('./test/testing', import.meta.url)),
};

// The workers (forked from this process, with its environment) run several files' DuckDB
// statements at once, each holding one of libuv's threads while it runs; with libuv's default of
// four, a DNS lookup (`localhost` in the outbound-HTTP tests) once waited past its 10 s. More
// threads, from each worker's start: DuckDB still does the work on its own threads.
process.env.UV_THREADPOOL_SIZE ??= '16';

/** Server tests that spawn the server's CLI (see the 'processes' project). */
const PROCESS_TESTS = ['test/server/restart.test.ts', 'test/server/import.test.ts', 'test/server/cli.test.ts'];

export default defineConfig({
  test: {
    // Every core (vitest's default leaves one free: a single worker on a 2-core machine).
    maxWorkers: '100%',
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'test/server/**/*.test.ts',
            'test/analytics/**/*.test.ts',
            'test/fuzz/**/*.test.ts',
            'server/**/*.test.ts',
            'src/contract/**/*.test.ts',
            'src/lib/**/*.test.ts',
            'src/features/*/lib/**/*.test.ts',
          ],
          exclude: ['test/server/pipeline/**', 'test/server/destinations/**', ...PROCESS_TESTS],
          testTimeout: 30_000,
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          // Tests that start the server as a process of its own and talk to it over the network:
          // each file in a fresh process. In a worker shared with other files, whose in-process
          // servers may still be finishing work, a fetch to a freshly started server timed out
          // for the whole 20 s a start is given (two CI runs, one local full run).
          name: 'processes',
          environment: 'node',
          include: PROCESS_TESTS,
          pool: 'forks',
          isolate: true,
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // The pipeline's deliveries, sandboxes and receivers run each file in a process of its
          // own: sharing one with other files (Node's global HTTP agent and its kept-alive
          // sockets, worker threads) made them wait out their timeouts in some full runs.
          name: 'pipeline',
          environment: 'node',
          // Export destinations load their vendors' clients (AWS, Google, Snowflake), which keep
          // agents, sockets and timers of their own: shared with other files, a later S3 run in
          // batch-exports-runs waited out its 30 s in full runs, never alone.
          include: ['test/server/pipeline/**/*.test.ts', 'test/server/destinations/**/*.test.ts'],
          pool: 'forks',
          isolate: true,
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['test/setup-web.ts'],
          // Files share a worker's modules (the app, the reference server): each file no longer
          // imports them anew, which halves the run. test/setup-web.ts resets the document.
          isolate: false,
          testTimeout: 45_000,
        },
      },
    ],
  },
});
