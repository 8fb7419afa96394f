import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import type { EventStore } from '../analytics/store/event-store.ts';
import { normalizeEvent, type CaptureEvent } from '../analytics/store/ingest-parse.ts';
import { openDataDir } from '../data-dir.ts';
import { InputError } from '../domain-errors.ts';
import { dataDirFrom, UsageError } from './args.ts';
import { prepareEvents } from './start.ts';

export const IMPORT_BATCH = 5_000;
/** Bad lines named in the summary (the count is always exact). */
const MAX_LISTED = 20;

export interface ImportResult {
  imported: number;
  skipped: number;
  /** 1-based line numbers of the first bad lines, with why. */
  bad: { line: number; reason: string }[];
}

function reasonOf(error: unknown): string {
  if (error instanceof InputError) return error.attr ? `${error.attr}: ${error.message}` : error.message;
  if (error instanceof SyntaxError) return `invalid JSON (${error.message})`;
  throw error;
}

/**
 * Streams `file` (one JSON event per line, the capture shape) into project `teamId`, in batches
 * of `batchSize`: reading waits while a batch is written, so memory stays flat. Blank lines are
 * ignored; a bad line is skipped and reported, the rest is imported.
 */
export async function importEvents(
  events: EventStore,
  teamId: number,
  input: NodeJS.ReadableStream,
  options: { now?: Date; batchSize?: number } = {},
): Promise<ImportResult> {
  const clock = { now: options.now ?? new Date(), sentAt: null };
  const batchSize = options.batchSize ?? IMPORT_BATCH;
  const result: ImportResult = { imported: 0, skipped: 0, bad: [] };
  let batch: CaptureEvent[] = [];
  let lineNumber = 0;
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    try {
      batch.push(normalizeEvent(JSON.parse(line) as unknown, '', clock));
    } catch (error) {
      result.skipped += 1;
      if (result.bad.length < MAX_LISTED) result.bad.push({ line: lineNumber, reason: reasonOf(error) });
      continue;
    }
    if (batch.length >= batchSize) {
      result.imported += await events.append(teamId, batch);
      batch = [];
    }
  }
  result.imported += await events.append(teamId, batch);
  return result;
}

export function summary(result: ImportResult, project: { id: number; name: string }): string {
  let text = `imported ${result.imported} events into project ${project.id} (${project.name}), skipped ${result.skipped} bad lines`;
  if (result.skipped > 0) {
    text += `: ${result.bad.map((b) => b.line).join(', ')}${result.skipped > result.bad.length ? ', …' : ''}`;
  }
  return text;
}

/** `import FILE --project ID [--data-dir DIR]` */
export async function importCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { project: { type: 'string' }, 'data-dir': { type: 'string' }, 'batch-size': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError('usage: import FILE.jsonl --project ID [--data-dir DIR]');
  if (!values.project || !/^\d+$/.test(values.project))
    throw new UsageError('--project ID is required (a project id, e.g. 1)');
  const batchSize = values['batch-size'] === undefined ? IMPORT_BATCH : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000)
    throw new UsageError('--batch-size must be an integer from 1 to 100000');
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new UsageError(`no such file '${file}'`);

  const { store, events } = openDataDir(dataDirFrom(values['data-dir']));
  try {
    const project = store.projects.get(Number(values.project));
    if (!project) throw new UsageError(`no project with id '${values.project}'`);
    await prepareEvents(store, events, 0);
    const result = await importEvents(events, project.id, fs.createReadStream(file), { batchSize });
    for (const b of result.bad) process.stderr.write(`line ${b.line}: ${b.reason}\n`);
    process.stdout.write(`${summary(result, project)}\n`);
  } finally {
    await events.close();
    store.close();
  }
}
