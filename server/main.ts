import { parseArgs } from 'node:util';
import { UsageError, dataDirFrom } from './cli/args.ts';
import { importCommand } from './cli/import.ts';
import { key } from './cli/key.ts';
import { prepareEvents, start } from './cli/start.ts';
import { openDataDir } from './data-dir.ts';
import { demoEventCount } from './seed/events.ts';

const USAGE = `usage: tsx server/main.ts <command> [flags]
  start [--port N] [--data-dir DIR] [--upstream URL] [--host H] [--static-dir DIR] [--demo-events N]
        [--allow-destination HOST ...] [--api-origin URL ...]
        env PORT, DATA_DIR, SEED_EVENTS, ALLOW_DESTINATIONS, API_ORIGINS; defaults 8000, .data, 1000000;
        the data dir is created and seeded on first run
  key create --label L --scopes a:read,b:write|* [--organization ID ...] [--user EMAIL] [--data-dir DIR]
  key list [--data-dir DIR]
  key revoke ID [--data-dir DIR]
  seed [--data-dir DIR] [--demo-events N]   seed an empty data dir (start does this by itself)
  import FILE.jsonl --project ID [--data-dir DIR]   bulk import of events, one JSON event per line`;

async function seedCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, 'demo-events': { type: 'string' } },
    strict: true,
  });
  let count: number;
  try {
    count = demoEventCount(values['demo-events']);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const dir = dataDirFrom(values['data-dir']);
  const { store, events, seeded } = openDataDir(dir);
  try {
    await prepareEvents(store, events, count);
  } finally {
    await events.close();
    store.close();
  }
  process.stdout.write(seeded ? `seeded ${dir}\n` : `${dir} already holds data: left as it is\n`);
}

async function main(argv: string[]): Promise<void> {
  // Everything the server writes (store, events, secret key, logs) is for its owner only.
  process.umask(0o077);
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return start(rest);
    case 'key':
      return key(rest);
    case 'seed':
      return seedCommand(rest);
    case 'import':
      return importCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
  ) {
    process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
