// `npm test`: everything that can fail, stopping at the first red stage: type-check, lint, the
// format check and build side by side (each mostly on one core), then vitest (unit, component, server; on every
// core), then Playwright e2e against the build.
import { bin, run } from './lib.mjs';

const stages = [
  [
    ['type-check', bin('tsc'), ['--noEmit']],
    ['lint', bin('eslint'), ['--max-warnings', '0', '.']],
    ['format', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
    ['build', bin('vite'), ['build', '--logLevel', 'warn']],
  ],
  [['vitest', bin('vitest'), ['run']]],
  [['e2e', process.execPath, ['scripts/e2e.mjs']]],
];

for (const stage of stages) {
  console.log(`\n▶ ${stage.map(([name]) => name).join(', ')}`);
  const codes = await Promise.all(
    stage.map(async ([name, command, args]) => {
      const started = Date.now();
      const code = await run(command, args);
      console.log(
        code === 0
          ? `✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`
          : `\n✖ ${name} failed (exit ${code})`,
      );
      return code;
    }),
  );
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) process.exit(failed);
}
