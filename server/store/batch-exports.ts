import type { BatchExportInterval, BatchExportModel, DestinationType } from '../../src/contract/index.ts';
import type { Db } from './db.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import type { ReadCache } from './read-cache.ts';
import type { SecretBox } from './secret-box.ts';
import { newUuid } from './secrets.ts';

/**
 * A batch export as the repository hands it out. `destination_config` is JSON *with* its
 * secrets (redact before sending); in the file it is sealed (secret-box.ts), never plaintext.
 */
export interface BatchExportRow {
  id: string;
  organization_id: string;
  team_id: number;
  name: string;
  /** Written only from validated input: one of the contract's values. */
  model: BatchExportModel;
  destination_type: DestinationType;
  destination_config: string;
  interval: BatchExportInterval;
  paused: number;
  last_paused_at: string | null;
  start_at: string | null;
  end_at: string | null;
  hogql_query: string | null;
  created_at: string;
  last_updated_at: string;
  /** End of the next interval the scheduler creates a run for; null = not anchored yet. */
  next_run_at: string | null;
}

/** An export with its newest runs (JSON array, newest first): what the list and detail show. */
export interface BatchExportViewRow extends BatchExportRow {
  latest_runs: string;
}

/** Every stored field but the id and the organization (set on create, never changed). */
export type BatchExportFields = Omit<BatchExportRow, 'id' | 'organization_id' | 'created_at'>;

/** How many runs `latest_runs` holds. */
export const LATEST_RUNS = 5;

/** One run as JSON, in the API's field order (the runs endpoint builds the same shape in TS). */
export const RUN_JSON = `json_object('id', r.id, 'status', r.status, 'records_completed', r.records_completed,
  'latest_error', r.latest_error, 'data_interval_start', r.data_interval_start, 'data_interval_end', r.data_interval_end,
  'cursor', r.cursor, 'created_at', r.created_at, 'finished_at', r.finished_at, 'last_updated_at', r.last_updated_at,
  'records_total_count', r.records_total_count, 'batch_export', r.batch_export_id, 'backfill', r.backfill_id)`;

// The newest runs of each export through the (batch_export_id, created_at) index: one query, no N+1.
const VIEW = `
  SELECT b.*,
    (SELECT json_group_array(${RUN_JSON} ORDER BY r.created_at DESC, r.seq DESC)
       FROM (SELECT *, rowid AS seq FROM batch_export_runs WHERE batch_export_id = b.id
             ORDER BY created_at DESC, rowid DESC LIMIT ${LATEST_RUNS}) r) AS latest_runs
  FROM batch_exports b`;

const COLUMNS = [
  'team_id',
  'name',
  'model',
  'destination_type',
  'destination_config',
  'interval',
  'paused',
  'last_paused_at',
  'start_at',
  'end_at',
  'hogql_query',
  'last_updated_at',
  'next_run_at',
] as const;

export function createBatchExportsRepository(db: Db, cache: ReadCache, box: SecretBox) {
  const list = db.prepare<Record<string, unknown>, BatchExportViewRow>(
    `${VIEW} WHERE b.organization_id = @organization ORDER BY b.created_at, b.id ${LIMIT_OFFSET}`,
  );
  const count = db.prepare<unknown[], number>('SELECT COUNT(*) FROM batch_exports WHERE organization_id = ?').pluck();
  const view = db.prepare<Record<string, unknown>, BatchExportViewRow>(
    `${VIEW} WHERE b.id = @id AND b.organization_id = @organization`,
  );
  const byId = db.prepare<unknown[], BatchExportRow>('SELECT * FROM batch_exports WHERE id = ?');
  const insert = db.prepare(`INSERT INTO batch_exports (id, organization_id, created_at, ${COLUMNS.join(', ')})
    VALUES (@id, @organization_id, @created_at, ${COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const update = db.prepare(`UPDATE batch_exports SET ${COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
  const setPaused = db.prepare(`UPDATE batch_exports SET paused = @paused, last_paused_at = @last_paused_at,
    next_run_at = @next_run_at, last_updated_at = @last_updated_at WHERE id = @id AND paused = 1 - @paused`);
  const remove = db.prepare('DELETE FROM batch_exports WHERE id = ? AND organization_id = ?');
  const firstProject = db
    .prepare<unknown[], number>('SELECT id FROM projects WHERE organization_id = ? ORDER BY id LIMIT 1')
    .pluck();
  const projectIn = db.prepare('SELECT 1 FROM projects WHERE id = ? AND organization_id = ?').pluck();
  const due = db.prepare<Record<string, unknown>, BatchExportRow>(`SELECT * FROM batch_exports WHERE paused = 0
    AND (next_run_at IS NULL OR (next_run_at <= @now AND (end_at IS NULL OR next_run_at <= end_at)))
    ORDER BY created_at, id`);
  const setNext = db.prepare('UPDATE batch_exports SET next_run_at = ? WHERE id = ?');
  const opened = <T extends BatchExportRow | undefined>(row: T): T =>
    row ? { ...row, destination_config: box.open(row.destination_config) } : row;
  const sealed = <T extends { destination_config: string }>(row: T): T => ({
    ...row,
    destination_config: box.seal(row.destination_config),
  });

  // Configs stored before encryption at rest are sealed on open.
  const plain = db
    .prepare("SELECT id, destination_config FROM batch_exports WHERE destination_config NOT LIKE 'enc:%'")
    .all() as { id: string; destination_config: string }[];
  if (plain.length > 0) {
    const seal = db.prepare('UPDATE batch_exports SET destination_config = ? WHERE id = ?');
    db.transaction(() => {
      for (const r of plain) seal.run(box.seal(r.destination_config), r.id);
    })();
  }

  return {
    /**
     * A page of the organization's exports, oldest first, rendered by `render` (the serializer):
     * the rendered page is what the read cache keeps, so a repeated list parses and
     * stringifies nothing until the store changes.
     */
    listForOrganization<T>(
      organizationId: string,
      limit: number,
      offset: number,
      render: (rows: BatchExportViewRow[]) => T,
    ): T {
      const params = { organization: organizationId, limit, offset };
      return cache.get(`batch_exports:list:${organizationId}:${limit}:${offset}`, () =>
        render(list.all(params).map(opened)),
      );
    },
    countForOrganization(organizationId: string): number {
      return cache.get(`batch_exports:count:${organizationId}`, () => count.get(organizationId)!);
    },
    /** The export with its latest runs, if it belongs to `organizationId`. */
    view(organizationId: string, id: string): BatchExportViewRow | undefined {
      return opened(view.get({ id, organization: organizationId }));
    },
    get(id: string): BatchExportRow | undefined {
      return opened(byId.get(id));
    },
    create(organizationId: string, fields: BatchExportFields, at: string, id: string = newUuid()): string {
      insert.run(sealed({ ...fields, id, organization_id: organizationId, created_at: at }));
      return id;
    },
    /** Writes every field of `row` (read, changed, written back by the caller). */
    update(row: BatchExportRow): void {
      const stored = sealed(row);
      update.run(Object.fromEntries([['id', row.id], ...COLUMNS.map((c) => [c, stored[c]])]));
    },
    /**
     * Writes the pause fields of `row` (paused, last_paused_at, next_run_at, last_updated_at:
     * see batch-exports/pause.ts); false (nothing written) when the stored export already had
     * that `paused`.
     */
    setPaused(
      row: Pick<BatchExportRow, 'id' | 'paused' | 'last_paused_at' | 'next_run_at' | 'last_updated_at'>,
    ): boolean {
      const { id, paused, last_paused_at, next_run_at, last_updated_at } = row;
      return setPaused.run({ id, paused, last_paused_at, next_run_at, last_updated_at }).changes > 0;
    },
    /** Deletes the export with its runs and log entries (foreign-key cascade). */
    delete(organizationId: string, id: string): boolean {
      return remove.run(id, organizationId).changes > 0;
    },
    firstProjectId(organizationId: string): number | undefined {
      return firstProject.get(organizationId);
    },
    projectInOrganization(teamId: number, organizationId: string): boolean {
      return projectIn.get(teamId, organizationId) !== undefined;
    },
    /** Unpaused exports whose next interval has ended by `now` (or that were never anchored). */
    due(now: string): BatchExportRow[] {
      return due.all({ now }).map(opened);
    },
    setNextRunAt(id: string, nextRunAt: string): void {
      setNext.run(nextRunAt, id);
    },
  };
}
export type BatchExportsRepository = ReturnType<typeof createBatchExportsRepository>;
