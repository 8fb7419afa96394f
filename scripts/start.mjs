// `npm start`: builds the app when the build is stale, then runs the reference server in the
// foreground (flags pass through: --port N --data-dir DIR --upstream URL).
import { spawn } from 'node:child_process';
import { buildIfStale, root } from './lib.mjs';

const code = await buildIfStale();
if (code !== 0) process.exit(code);

const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'start', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (exitCode, signal) => process.exit(exitCode ?? (signal ? 0 : 1)));
