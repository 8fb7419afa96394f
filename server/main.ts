import { parseArgs } from 'node:util';
import { UsageError, dataDirFrom } from './cli/args.ts';
import { key } from './cli/key.ts';
import { start } from './cli/start.ts';
import { openDataDir } from './data-dir.ts';

const USAGE = `usage: tsx server/main.ts <command> [flags]
  start [--port N] [--data-dir DIR] [--upstream URL] [--host H] [--static-dir DIR]
        env PORT, DATA_DIR; defaults 8000 and .data; the data dir is created and seeded on first run
  key create --label L --scopes a:read,b:write|* [--organization ID ...] [--user EMAIL] [--data-dir DIR]
  key list [--data-dir DIR]
  key revoke ID [--data-dir DIR]
  seed [--data-dir DIR]      seed an empty data dir (start does this by itself)`;

function seedCommand(argv: string[]): void {
  const { values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' } }, strict: true });
  const dir = dataDirFrom(values['data-dir']);
  const { store, seeded } = openDataDir(dir);
  store.close();
  process.stdout.write(seeded ? `seeded ${dir}\n` : `${dir} already holds data: left as it is\n`);
}

function main(argv: string[]): void {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start': return start(rest);
    case 'key': return key(rest);
    case 'seed': return seedCommand(rest);
    case undefined: case 'help': case '--help': case '-h':
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

try {
  main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
    process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  throw error;
}
