/** Cohorts of a project (routes in server/http/routes/cohorts/; members are kept in the event store). */
export const cohortsMigration: { version: number; name: string; sql: string } = {
  version: 11,
  name: 'cohorts',
  sql: `
    -- AUTOINCREMENT: an id is never given twice, so the event store's members of a cohort are its own.
    CREATE TABLE cohorts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      team_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      name TEXT,
      description TEXT NOT NULL DEFAULT '',
      filters TEXT,
      is_static INTEGER NOT NULL DEFAULT 0,
      deleted INTEGER NOT NULL DEFAULT 0,
      is_calculating INTEGER NOT NULL DEFAULT 0,
      errors_calculating INTEGER NOT NULL DEFAULT 0,
      count INTEGER,
      last_calculation TEXT,
      created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX cohorts_team ON cohorts (team_id, deleted, created_at);
  `,
};
