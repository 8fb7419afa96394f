import type { Db } from './db.ts';
import { cohortsMigration } from './migrations-cohorts.ts';
import { pluginActivityGroupMigration, pluginsMigration } from './migrations-plugins.ts';

export interface Migration {
  version: number;
  name: string;
  /** Static DDL only: never built from input. */
  sql: string;
}

/**
 * Versioned migrations, applied once each, in order, inside a transaction.
 * Never edit a released migration: add a new one.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'core: users, organizations, memberships, projects, personal api keys',
    sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        distinct_id TEXT NOT NULL UNIQUE,
        first_name TEXT NOT NULL,
        last_name TEXT NOT NULL DEFAULT '',
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        is_email_verified INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
      );
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        slug TEXT NOT NULL UNIQUE,
        plugins_access_level INTEGER NOT NULL DEFAULT 9,
        is_member_join_email_enabled INTEGER NOT NULL DEFAULT 1,
        enforce_2fa INTEGER,
        customer_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX organizations_created_at ON organizations (created_at, id);
      CREATE TABLE memberships (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        level INTEGER NOT NULL CHECK (level IN (1, 8, 15)),
        joined_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (organization_id, user_id)
      );
      CREATE INDEX memberships_user ON memberships (user_id, organization_id);
      CREATE TABLE projects (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        api_token TEXT NOT NULL UNIQUE,
        timezone TEXT NOT NULL DEFAULT 'UTC',
        week_start_day INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX projects_organization ON projects (organization_id, id);
      -- scoped_organizations is a JSON array (or NULL = every organization of the user).
      -- Kept as ids, not a foreign key: deleting an organization must never widen a key.
      CREATE TABLE personal_api_keys (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        secure_value TEXT NOT NULL UNIQUE,
        mask_value TEXT NOT NULL,
        scopes TEXT NOT NULL,
        scoped_organizations TEXT,
        created_at TEXT NOT NULL,
        last_used_at TEXT
      );
    `,
  },
  {
    version: 2,
    name: 'projects: test_account_filters (JSON list of property filters)',
    sql: `
      ALTER TABLE projects ADD COLUMN test_account_filters TEXT NOT NULL
        DEFAULT '[{"key":"email","value":"@hedgebox.example","operator":"not_icontains","type":"person"}]';
    `,
  },
  {
    version: 3,
    name: 'batch exports: exports, runs, log entries',
    sql: `
      -- destination_config is the JSON config with its secrets: never sent as is (redactDestination).
      -- next_run_at: end of the next interval the scheduler creates a run for (NULL = not anchored yet).
      CREATE TABLE batch_exports (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        team_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        model TEXT NOT NULL,
        destination_type TEXT NOT NULL,
        destination_config TEXT NOT NULL,
        interval TEXT NOT NULL,
        paused INTEGER NOT NULL DEFAULT 0,
        last_paused_at TEXT,
        start_at TEXT,
        end_at TEXT,
        hogql_query TEXT,
        created_at TEXT NOT NULL,
        last_updated_at TEXT NOT NULL,
        next_run_at TEXT
      );
      CREATE INDEX batch_exports_organization ON batch_exports (organization_id, created_at, id);
      CREATE INDEX batch_exports_due ON batch_exports (paused, next_run_at);
      CREATE TABLE batch_export_runs (
        id TEXT PRIMARY KEY,
        batch_export_id TEXT NOT NULL REFERENCES batch_exports (id) ON DELETE CASCADE,
        status TEXT NOT NULL,
        records_completed INTEGER,
        records_total_count INTEGER,
        latest_error TEXT,
        data_interval_start TEXT,
        data_interval_end TEXT NOT NULL,
        cursor TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        finished_at TEXT,
        last_updated_at TEXT NOT NULL
      );
      CREATE INDEX batch_export_runs_export ON batch_export_runs (batch_export_id, created_at);
      CREATE INDEX batch_export_runs_status ON batch_export_runs (status);
      CREATE TABLE batch_export_logs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        batch_export_id TEXT NOT NULL REFERENCES batch_exports (id) ON DELETE CASCADE,
        run_id TEXT,
        timestamp TEXT NOT NULL,
        level TEXT NOT NULL,
        message TEXT NOT NULL
      );
      CREATE INDEX batch_export_logs_export ON batch_export_logs (batch_export_id, id);
    `,
  },
  {
    version: 4,
    name: 'insights, their views and sharing; the activity log of every resource',
    sql: `
      -- query: the insight's query node (JSON, as validated); filters: the same analysis in the
      -- legacy filters form (JSON). Both are written together from one validated input.
      CREATE TABLE insights (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        short_id TEXT NOT NULL,
        name TEXT,
        derived_name TEXT,
        description TEXT,
        filters TEXT NOT NULL DEFAULT '{}',
        query TEXT,
        tags TEXT NOT NULL DEFAULT '[]',
        dashboards TEXT NOT NULL DEFAULT '[]',
        favorited INTEGER NOT NULL DEFAULT 0,
        saved INTEGER NOT NULL DEFAULT 0,
        deleted INTEGER NOT NULL DEFAULT 0,
        "order" INTEGER,
        created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_modified_at TEXT NOT NULL,
        last_modified_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
        last_refresh TEXT,
        UNIQUE (project_id, short_id)
      );
      CREATE INDEX insights_project ON insights (project_id, deleted, id);
      CREATE TABLE insight_views (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        insight_id INTEGER NOT NULL REFERENCES insights (id) ON DELETE CASCADE,
        last_viewed_at TEXT NOT NULL,
        PRIMARY KEY (user_id, insight_id)
      );
      CREATE INDEX insight_views_recent ON insight_views (user_id, last_viewed_at);
      CREATE TABLE insight_sharing (
        insight_id INTEGER PRIMARY KEY REFERENCES insights (id) ON DELETE CASCADE,
        enabled INTEGER NOT NULL DEFAULT 0,
        access_token TEXT UNIQUE,
        created_at TEXT
      );
      -- One log for every resource: scope is the resource kind (Insight, Plugin, ...), item_id its
      -- id as text, detail the JSON {name, short_id, changes: [{type, action, field, before, after}]}.
      CREATE TABLE activity_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        project_id INTEGER REFERENCES projects (id) ON DELETE CASCADE,
        scope TEXT NOT NULL,
        item_id TEXT,
        activity TEXT NOT NULL,
        detail TEXT NOT NULL,
        user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX activity_log_project ON activity_log (project_id, scope, seq);
      CREATE INDEX activity_log_item ON activity_log (scope, item_id, seq);
      CREATE INDEX activity_log_organization ON activity_log (organization_id, scope, seq);
    `,
  },
  {
    version: 5,
    name: 'insight timings reported by clients',
    sql: `
      CREATE TABLE insight_timings (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
        insight_id INTEGER REFERENCES insights (id) ON DELETE SET NULL,
        client_query_id TEXT,
        duration_ms INTEGER NOT NULL,
        is_cached INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE INDEX insight_timings_project ON insight_timings (project_id, id);
    `,
  },
  {
    version: 6,
    name: 'organization people: invites, domains; users 2FA and social login flags',
    sql: `
      ALTER TABLE users ADD COLUMN is_2fa_enabled INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN has_social_auth INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX memberships_organization ON memberships (organization_id, joined_at, id);
      -- private_project_access: JSON list of {id, level} or NULL.
      CREATE TABLE invites (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        target_email TEXT NOT NULL COLLATE NOCASE,
        first_name TEXT,
        level INTEGER NOT NULL CHECK (level IN (1, 8, 15)),
        message TEXT,
        private_project_access TEXT,
        emailing_attempt_made INTEGER NOT NULL DEFAULT 0,
        created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX invites_organization ON invites (organization_id, created_at, id);
      CREATE INDEX invites_email ON invites (organization_id, target_email);
      CREATE TABLE domains (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        domain TEXT NOT NULL UNIQUE,
        verification_challenge TEXT NOT NULL,
        verified_at TEXT,
        jit_provisioning_enabled INTEGER NOT NULL DEFAULT 0,
        sso_enforcement TEXT NOT NULL DEFAULT '',
        saml_entity_id TEXT,
        saml_acs_url TEXT,
        saml_x509_cert TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX domains_organization ON domains (organization_id, created_at, id);
    `,
  },
  pluginsMigration,
  pluginActivityGroupMigration,
  {
    version: 9,
    name: 'invites: the accept link carries a secret, stored hashed',
    sql: `
      -- Invites made before this have no secret: they cannot be accepted and must be sent again.
      ALTER TABLE invites ADD COLUMN secret_hash TEXT;
    `,
  },
  {
    version: 10,
    name: 'batch exports: backfills, and the backfill each run belongs to',
    sql: `
      -- A backfill's status and progress are read from its runs; cancelled_at is its own.
      CREATE TABLE batch_export_backfills (
        id TEXT PRIMARY KEY,
        batch_export_id TEXT NOT NULL REFERENCES batch_exports (id) ON DELETE CASCADE,
        team_id INTEGER NOT NULL,
        start_at TEXT NOT NULL,
        end_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_updated_at TEXT NOT NULL,
        cancelled_at TEXT
      );
      CREATE INDEX batch_export_backfills_export ON batch_export_backfills (batch_export_id, created_at);
      ALTER TABLE batch_export_runs ADD COLUMN backfill_id TEXT REFERENCES batch_export_backfills (id) ON DELETE SET NULL;
      CREATE INDEX batch_export_runs_backfill ON batch_export_runs (backfill_id, status);
    `,
  },
  cohortsMigration,
];

/** Applies every migration not yet recorded in `schema_migrations`. Returns the versions applied. */
export function migrate(db: Db, list: readonly Migration[] = migrations): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const done: number[] = [];
  for (const m of [...list].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    })();
    done.push(m.version);
  }
  return done;
}
