// The sandbox worker's entry: TypeScript is loaded through tsx (the server's runtime), so the
// worker also starts from processes that do not run under tsx (vitest, benches).
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
