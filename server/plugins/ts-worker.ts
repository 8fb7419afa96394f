import { Worker, type WorkerOptions } from 'node:worker_threads';

const ENTRY = new URL('./ts-worker-entry.mjs', import.meta.url);

/** A worker thread running a TypeScript module of the server (`module`: its URL). */
export function startTsWorker(module: URL, options: Omit<WorkerOptions, 'argv'>): Worker {
  return new Worker(ENTRY, { ...options, argv: [module.href] });
}
