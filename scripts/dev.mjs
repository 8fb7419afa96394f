// `npm run dev`: the reference server on :8000 (or PORT) plus Vite proxying /api to it; a change
// to a component is applied in place by React Fast Refresh (docs/runtime.md).
import { spawn } from 'node:child_process';
import { bin, root, startServer } from './lib.mjs';

const port = process.env.PORT ?? '8000';
const vitePort = process.env.VITE_PORT ?? '5173';
const { child: server, url, key } = await startServer(['--port', port, ...process.argv.slice(2)]);
const vite = spawn(bin('vite'), ['--port', vitePort, '--strictPort'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, API_TARGET: url },
});
if (key) console.log(`dev sign in: http://localhost:${vitePort}/#key=${key}`);
const stop = () => {
  vite.kill('SIGTERM');
  server.kill('SIGTERM');
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
vite.on('exit', (code) => {
  server.kill('SIGTERM');
  process.exit(code ?? 0);
});
