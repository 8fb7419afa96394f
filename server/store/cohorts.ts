import type { Db } from './db.ts';
import { USER_JSON } from './insights.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';

/** A stored cohort. `filters` holds only validated criteria (JSON), or null for a static cohort. */
export interface CohortRow {
  id: number;
  team_id: number;
  name: string | null;
  description: string;
  filters: string | null;
  is_static: number;
  deleted: number;
  is_calculating: number;
  errors_calculating: number;
  count: number | null;
  last_calculation: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** The creator as the API's User (JSON), or null. */
  created_by_user: string | null;
}

export type CohortFields = Pick<CohortRow, 'name' | 'description' | 'filters' | 'deleted'>;

const VIEW = `SELECT c.*, ${USER_JSON('created_by', 'c')} AS created_by_user FROM cohorts c`;

export function createCohortsRepository(db: Db) {
  const get = db.prepare<[number], CohortRow>(`${VIEW} WHERE c.id = ?`);
  const list = db.prepare<Record<string, unknown>, CohortRow>(
    `${VIEW} WHERE c.team_id = @team AND c.deleted = 0 ORDER BY c.created_at DESC, c.id DESC ${LIMIT_OFFSET}`,
  );
  const count = db.prepare<[number], number>('SELECT COUNT(*) FROM cohorts WHERE team_id = ? AND deleted = 0').pluck();
  const live = db.prepare<[number], { id: number; name: string | null }>(
    'SELECT id, name FROM cohorts WHERE team_id = ? AND deleted = 0',
  );
  const insert =
    db.prepare(`INSERT INTO cohorts (team_id, name, description, filters, is_static, is_calculating, created_by, created_at, updated_at)
    VALUES (@team_id, @name, @description, @filters, @is_static, @is_calculating, @created_by, @at, @at)`);
  const update = db.prepare(
    `UPDATE cohorts SET name = @name, description = @description, filters = @filters, deleted = @deleted, updated_at = @at WHERE id = @id`,
  );
  const calculating = db.prepare('UPDATE cohorts SET is_calculating = 1 WHERE id = ?');
  const calculated = db.prepare(
    'UPDATE cohorts SET is_calculating = 0, count = @count, last_calculation = @at, errors_calculating = 0 WHERE id = @id',
  );
  const failed = db.prepare(
    'UPDATE cohorts SET is_calculating = 0, errors_calculating = errors_calculating + 1 WHERE id = ?',
  );
  return {
    get: (id: number) => get.get(id),
    list: (teamId: number, limit: number, offset: number) => list.all({ team: teamId, limit, offset }),
    count: (teamId: number) => count.get(teamId) ?? 0,
    /** The project's cohorts that are not deleted: id → name. */
    live: (teamId: number) => new Map(live.all(teamId).map((r) => [r.id, r.name ?? `Cohort ${r.id}`])),
    create: (
      row: {
        team_id: number;
        name: string | null;
        description: string;
        filters: string | null;
        is_static: boolean;
        created_by: number | null;
      },
      at: string,
    ) => Number(insert.run({ ...row, is_static: row.is_static ? 1 : 0, is_calculating: 1, at }).lastInsertRowid),
    update: (id: number, fields: CohortFields, at: string) => update.run({ ...fields, id, at }),
    /** The cohort's members are being computed. */
    calculating: (id: number) => calculating.run(id),
    /** Its members were computed: `count` of them. */
    calculated: (id: number, count: number, at: string) => calculated.run({ id, count, at }),
    /** Computing its members failed. */
    failed: (id: number) => failed.run(id),
  };
}
