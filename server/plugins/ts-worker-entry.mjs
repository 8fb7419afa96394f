// The entry of the server's worker threads (ts-worker.ts): TypeScript is loaded through tsx (the
// server's runtime), so a worker also starts from processes that do not run under tsx (vitest,
// benches). The module to run is the last argument.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
