import type { PluginJobRun } from '../../src/contract/index.ts';
import type { EventStore } from '../analytics/store/event-store.ts';
import { normalizeEvent } from '../analytics/store/ingest-parse.ts';
import { sendOutbound, type OutboundPolicy } from '../net/outbound.ts';
import type { Store } from '../store/store.ts';

/**
 * The import apps' job: pull a CSV file (header row; `event`, `distinct_id`, `timestamp`, every
 * other column a property) or JSON lines (`{event, distinct_id, timestamp, properties}` per line)
 * from the configured URL into the project's events, in chunks, with the progress in the
 * config's `last_job` and a log entry per chunk and per bad row (the first 20).
 */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
const CHUNK = 1000;
const MAX_ROW_LOGS = 20;

/** One CSV line into fields (quotes, doubled quotes, commas inside quotes). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function parseRows(text: string, format: 'csv' | 'jsonl'): { row: unknown; line: number }[] {
  const lines = text.split(/\r?\n/);
  if (format === 'jsonl') {
    return lines.flatMap((l, i) => {
      if (!l.trim()) return [];
      try {
        return [{ row: JSON.parse(l) as unknown, line: i + 1 }];
      } catch {
        return [{ row: { __invalid: `line ${i + 1} is not JSON` }, line: i + 1 }];
      }
    });
  }
  const header = csvFields(lines[0] ?? '').map((h) => h.trim());
  return lines.slice(1).flatMap((l, i) => {
    if (!l.trim()) return [];
    const cells = csvFields(l);
    const properties: Record<string, string> = {};
    const row: Record<string, unknown> = { properties };
    header.forEach((h, j) => {
      const v = cells[j] ?? '';
      if (h === 'event' || h === 'distinct_id' || h === 'timestamp' || h === 'uuid') row[h] = v === '' ? undefined : v;
      else if (h && v !== '') properties[h] = v;
    });
    return [{ row, line: i + 2 }];
  });
}

export interface ImportJobDeps {
  store: Store;
  events: EventStore;
  now: () => Date;
  policy: OutboundPolicy;
}

/** Runs the import of config `configId` of project `teamId`; never rejects (failures are in last_job and the log). */
export async function runImportJob(
  d: ImportJobDeps,
  configId: number,
  teamId: number,
  config: Record<string, unknown>,
): Promise<void> {
  const stamp = () => d.now().toISOString();
  const job: PluginJobRun = {
    name: 'import',
    status: 'running',
    rows_imported: 0,
    rows_failed: 0,
    started_at: stamp(),
    finished_at: null,
    error: null,
  };
  const save = () => d.store.pluginConfigs.setJob(configId, job);
  const log = (level: 'INFO' | 'WARN' | 'ERROR', message: string) =>
    d.store.pluginConfigs.log(configId, level, 'job', message, stamp());
  save();
  try {
    const url = String(config.url ?? '');
    const format = config.format === 'jsonl' ? 'jsonl' : 'csv';
    log('INFO', `Import started from ${url} (${format}).`);
    const headers: Record<string, string> = {};
    if (typeof config.auth_header === 'string' && config.auth_header) headers.Authorization = config.auth_header;
    const res = await sendOutbound(
      url,
      { method: 'GET', headers, timeoutMs: 30_000, readBodyBytes: MAX_IMPORT_BYTES },
      d.policy,
    );
    if (res.status < 200 || res.status >= 300) throw new Error(`${url} answered ${res.status}.`);
    const rows = parseRows(res.body ?? '', format);
    const clock = { now: d.now(), sentAt: null };
    for (let i = 0; i < rows.length; i += CHUNK) {
      const batch = [];
      for (const { row, line } of rows.slice(i, i + CHUNK)) {
        try {
          if (row && typeof row === 'object' && '__invalid' in row)
            throw new Error(String((row as { __invalid: string }).__invalid));
          batch.push(normalizeEvent(row, `line ${line}`, clock));
        } catch (error) {
          job.rows_failed += 1;
          if (job.rows_failed <= MAX_ROW_LOGS) log('WARN', `Line ${line} skipped: ${(error as Error).message}`);
        }
      }
      if (batch.length > 0) await d.events.append(teamId, batch);
      job.rows_imported += batch.length;
      save();
      log('INFO', `${job.rows_imported} of ${rows.length} rows imported.`);
    }
    job.status = 'completed';
    log('INFO', `Import finished: ${job.rows_imported} rows imported, ${job.rows_failed} skipped.`);
  } catch (error) {
    job.status = 'failed';
    job.error = (error as Error).message;
    try {
      log('ERROR', `Import failed: ${job.error}`);
    } catch {
      // config deleted meanwhile
    }
  }
  job.finished_at = stamp();
  try {
    save();
  } catch {
    // config deleted meanwhile
  }
}
