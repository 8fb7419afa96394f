import path from 'node:path';
import { createActivityLogRepository } from './activity-log.ts';
import { createApiKeysRepository } from './api-keys.ts';
import { createBatchExportBackfillsRepository } from './batch-export-backfills.ts';
import { createBatchExportLogsRepository, createBatchExportRunsRepository } from './batch-export-runs.ts';
import { createBatchExportsRepository } from './batch-exports.ts';
import { createCohortsRepository } from './cohorts.ts';
import { openDatabase, type Db } from './db.ts';
import { createInsightSharingRepository } from './insight-sharing.ts';
import { createInsightTimingsRepository } from './insight-timings.ts';
import { createInsightViewsRepository } from './insight-views.ts';
import { createInsightsRepository } from './insights.ts';
import { createDomainsRepository } from './domains.ts';
import { createInvitesRepository } from './invites.ts';
import { createMembersRepository } from './members.ts';
import { createMembershipsRepository } from './memberships.ts';
import { migrate } from './migrations.ts';
import { createPluginConfigsRepository } from './plugin-configs.ts';
import { createPluginsRepository } from './plugins.ts';
import { createReadCache } from './read-cache.ts';
import { createSecretBox } from './secret-box.ts';
import { createOrganizationsRepository } from './organizations.ts';
import { createProjectsRepository } from './projects.ts';
import { createUsersRepository } from './users.ts';

/** The transactional store: one SQLite file, one repository per resource. */
export interface Store {
  db: Db;
  users: ReturnType<typeof createUsersRepository>;
  organizations: ReturnType<typeof createOrganizationsRepository>;
  memberships: ReturnType<typeof createMembershipsRepository>;
  projects: ReturnType<typeof createProjectsRepository>;
  apiKeys: ReturnType<typeof createApiKeysRepository>;
  batchExports: ReturnType<typeof createBatchExportsRepository>;
  batchExportRuns: ReturnType<typeof createBatchExportRunsRepository>;
  batchExportLogs: ReturnType<typeof createBatchExportLogsRepository>;
  batchExportBackfills: ReturnType<typeof createBatchExportBackfillsRepository>;
  insights: ReturnType<typeof createInsightsRepository>;
  insightViews: ReturnType<typeof createInsightViewsRepository>;
  insightSharing: ReturnType<typeof createInsightSharingRepository>;
  insightTimings: ReturnType<typeof createInsightTimingsRepository>;
  /** Organization people: members with their users, invites, domains. */
  members: ReturnType<typeof createMembersRepository>;
  invites: ReturnType<typeof createInvitesRepository>;
  domains: ReturnType<typeof createDomainsRepository>;
  plugins: ReturnType<typeof createPluginsRepository>;
  pluginConfigs: ReturnType<typeof createPluginConfigsRepository>;
  cohorts: ReturnType<typeof createCohortsRepository>;
  /** The activity log of every resource. */
  activityLog: ReturnType<typeof createActivityLogRepository>;
  /** Runs `fn` in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T;
  /** True when nothing has been stored yet (the seed runs then). */
  isEmpty(): boolean;
  close(): void;
}

export const storeFile = (dataDir: string) => path.join(dataDir, 'store.sqlite');

/** Opens `file` (or `:memory:`), applies pending migrations, prepares every statement once. */
export function openStore(file: string): Store {
  const db = openDatabase(file);
  migrate(db);
  const cache = createReadCache(db);
  const users = createUsersRepository(db);
  return {
    db,
    users,
    organizations: createOrganizationsRepository(db, cache),
    memberships: createMembershipsRepository(db, cache),
    projects: createProjectsRepository(db, cache),
    apiKeys: createApiKeysRepository(db, cache),
    batchExports: createBatchExportsRepository(db, cache, createSecretBox(file)),
    batchExportRuns: createBatchExportRunsRepository(db),
    batchExportLogs: createBatchExportLogsRepository(db),
    batchExportBackfills: createBatchExportBackfillsRepository(db),
    insights: createInsightsRepository(db, cache),
    insightViews: createInsightViewsRepository(db),
    insightSharing: createInsightSharingRepository(db),
    insightTimings: createInsightTimingsRepository(db),
    members: createMembersRepository(db),
    invites: createInvitesRepository(db),
    domains: createDomainsRepository(db),
    plugins: createPluginsRepository(db),
    pluginConfigs: createPluginConfigsRepository(db, createSecretBox(file)),
    cohorts: createCohortsRepository(db),
    activityLog: createActivityLogRepository(db),
    transaction: (fn) => db.transaction(fn)(),
    isEmpty: () => users.count() === 0,
    close: () => {
      if (db.open) db.close();
    },
  };
}
