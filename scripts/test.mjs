// `npm test`: everything that can fail, in order, stopping at the first red step:
// type-check, lint, vitest (unit, component, server), build, Playwright e2e.
import { bin, run } from './lib.mjs';

const steps = [
  ['type-check', bin('tsc'), ['--noEmit']],
  ['lint', bin('eslint'), ['--max-warnings', '0', '.']],
  ['vitest', bin('vitest'), ['run']],
  ['build', bin('vite'), ['build', '--logLevel', 'warn']],
  ['e2e', process.execPath, ['scripts/e2e.mjs']],
];

for (const [name, command, args] of steps) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const code = await run(command, args);
  if (code !== 0) {
    console.error(`\n✖ ${name} failed (exit ${code})`);
    process.exit(code);
  }
  console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
