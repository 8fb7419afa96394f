import type { InsightListQuery } from '../../src/contract/index.ts';
import type { Db } from './db.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import type { ReadCache } from './read-cache.ts';
import { randomBase62 } from './secrets.ts';

/** A stored insight. JSON columns hold only validated input (written by the insight routes). */
export interface InsightRow {
  id: number;
  project_id: number;
  short_id: string;
  name: string | null;
  derived_name: string | null;
  description: string | null;
  /** JSON: the legacy filters form of the analysis. */
  filters: string;
  /** JSON: the query node, or null for an insight without an analysis yet. */
  query: string | null;
  /** JSON list of text. */
  tags: string;
  /** JSON list of dashboard ids (deprecated field, kept as given). */
  dashboards: string;
  favorited: number;
  saved: number;
  deleted: number;
  order: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  last_modified_at: string;
  last_modified_by: number | null;
  last_refresh: string | null;
}

/** A row with its users as JSON objects (null when none): what responses are built from. */
export interface InsightViewRow extends InsightRow {
  created_by_user: string | null;
  last_modified_by_user: string | null;
}

/** Every field a write may set (id, project, short id and creation are fixed on create). */
export type InsightFields = Omit<InsightRow, 'id' | 'project_id' | 'short_id' | 'created_at' | 'created_by'>;

export type InsightListFilter = Pick<
  InsightListQuery,
  'created_by' | 'short_id' | 'search' | 'favorited' | 'saved' | 'order' | 'insight'
>;

/** SQL: the user of column `column` of row alias `alias` as a JSON object (the API's User), or NULL. */
export const USER_JSON = (
  column: string,
  alias = 'i',
) => `(SELECT json_object('id', u.id, 'uuid', u.uuid, 'distinct_id', u.distinct_id,
  'first_name', u.first_name, 'last_name', u.last_name, 'email', u.email,
  'is_email_verified', json(CASE WHEN u.is_email_verified THEN 'true' ELSE 'false' END), 'hedgehog_config', json('null'))
  FROM users u WHERE u.id = ${alias}.${column})`;

const VIEW = `SELECT i.*, ${USER_JSON('created_by')} AS created_by_user, ${USER_JSON('last_modified_by')} AS last_modified_by_user
  FROM insights i`;

/** The list's filters; every value bound (the search text is a LIKE pattern with its wildcards escaped). */
const LIST_WHERE = `WHERE i.project_id = @project AND i.deleted = 0
  AND (@created_by IS NULL OR i.created_by = @created_by)
  AND (@short_id IS NULL OR i.short_id = @short_id)
  AND (@favorited IS NULL OR i.favorited = @favorited)
  AND (@saved IS NULL OR i.saved = @saved)
  AND (@insight IS NULL OR json_extract(i.filters, '$.insight') = @insight)
  AND (@search IS NULL OR i.name LIKE @search ESCAPE '\\' OR i.derived_name LIKE @search ESCAPE '\\'
       OR i.description LIKE @search ESCAPE '\\'
       OR EXISTS (SELECT 1 FROM json_each(i.tags) t WHERE t.value LIKE @search ESCAPE '\\'))`;

/** `order` of the list → ORDER BY text (a fixed set: the contract's INSIGHT_ORDERINGS). */
const ORDER_BY: Record<NonNullable<InsightListFilter['order']>, string> = {
  name: "COALESCE(NULLIF(i.name, ''), i.derived_name) COLLATE NOCASE ASC, i.id ASC",
  '-name': "COALESCE(NULLIF(i.name, ''), i.derived_name) COLLATE NOCASE DESC, i.id DESC",
  created_at: 'i.created_at ASC, i.id ASC',
  '-created_at': 'i.created_at DESC, i.id DESC',
  updated_at: 'i.updated_at ASC, i.id ASC',
  '-updated_at': 'i.updated_at DESC, i.id DESC',
  last_modified_at: 'i.last_modified_at ASC, i.id ASC',
  '-last_modified_at': 'i.last_modified_at DESC, i.id DESC',
  order: 'i."order" ASC NULLS LAST, i.id ASC',
  '-order': 'i."order" DESC NULLS LAST, i.id DESC',
};
export const DEFAULT_INSIGHT_ORDER = '-last_modified_at';

const COLUMNS = [
  'name',
  'derived_name',
  'description',
  'filters',
  'query',
  'tags',
  'dashboards',
  'favorited',
  'saved',
  'deleted',
  'order',
  'updated_at',
  'last_modified_at',
  'last_modified_by',
  'last_refresh',
] as const;
const column = (c: string) => (c === 'order' ? '"order"' : c);

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

export const SHORT_ID_LENGTH = 8;
/** Whole list answers kept by `renderedPage` (a page of 100 is about 150 kB, and its compressed variants). */
const PAGE_ENTRIES = 64;

export function createInsightsRepository(db: Db, cache: ReadCache) {
  const insert =
    db.prepare(`INSERT INTO insights (project_id, short_id, created_by, created_at, ${COLUMNS.map(column).join(', ')})
    VALUES (@project_id, @short_id, @created_by, @created_at, ${COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const update = db.prepare(
    `UPDATE insights SET ${COLUMNS.map((c) => `${column(c)} = @${c}`).join(', ')} WHERE id = @id`,
  );
  const setRefresh = db.prepare('UPDATE insights SET last_refresh = ? WHERE id = ?');
  const byId = db.prepare<[number, number], InsightViewRow>(`${VIEW} WHERE i.id = ? AND i.project_id = ?`);
  const byIdAnywhere = db.prepare<[number], InsightViewRow>(`${VIEW} WHERE i.id = ?`);
  const shortIdTaken = db
    .prepare<[number, string], number>('SELECT 1 FROM insights WHERE project_id = ? AND short_id = ?')
    .pluck();
  const count = db.prepare<Record<string, unknown>, number>(`SELECT COUNT(*) FROM insights i ${LIST_WHERE}`).pluck();
  const lists = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, InsightViewRow>>>();
  const listStatement = (order: keyof typeof ORDER_BY) => {
    let statement = lists.get(order);
    if (!statement) {
      // The page's ids first (a sort of bare rows), then the view columns of those rows only:
      // sorting whole view rows computed every user object of the project (4 ms per 1,000).
      statement = db.prepare<Record<string, unknown>, InsightViewRow>(`${VIEW}
        WHERE i.id IN (SELECT i.id FROM insights i ${LIST_WHERE} ORDER BY ${ORDER_BY[order]} ${LIMIT_OFFSET})
        ORDER BY ${ORDER_BY[order]}`);
      lists.set(order, statement);
    }
    return statement;
  };
  const bind = (projectId: number, f: InsightListFilter) => ({
    project: projectId,
    created_by: f.created_by ?? null,
    short_id: f.short_id ?? null,
    favorited: f.favorited === undefined ? null : Number(f.favorited),
    saved: f.saved === undefined ? null : Number(f.saved),
    search: f.search ? likePattern(f.search) : null,
    insight: f.insight ?? null,
  });

  const pages = new Map<string, unknown>();
  let pagesEpoch: object | null = null;

  return {
    /**
     * Creates an insight with a fresh short id (8 base62 characters, unique in its project),
     * or the given one (the seed's, deterministic).
     */
    create(
      projectId: number,
      createdBy: number | null,
      fields: InsightFields,
      at: string,
      givenShortId?: string,
    ): number {
      let shortId = givenShortId ?? randomBase62(SHORT_ID_LENGTH);
      while (shortIdTaken.get(projectId, shortId)) shortId = randomBase62(SHORT_ID_LENGTH);
      return Number(
        insert.run({ ...fields, project_id: projectId, short_id: shortId, created_by: createdBy, created_at: at })
          .lastInsertRowid,
      );
    },
    /** The insight `id` of the project, soft-deleted ones included (the caller decides). */
    get(projectId: number, id: number): InsightViewRow | undefined {
      return byId.get(id, projectId);
    },
    /** The insight `id` whatever its project (for the public shared view, reached by token). */
    find(id: number): InsightViewRow | undefined {
      return byIdAnywhere.get(id);
    },
    update(id: number, fields: InsightFields): void {
      update.run({ ...fields, id });
    },
    setLastRefresh(id: number, at: string): void {
      setRefresh.run(at, id);
    },
    /** A page of the project's insights that are not deleted, filtered and ordered as asked. */
    list(projectId: number, filter: InsightListFilter, limit: number, offset: number): InsightViewRow[] {
      return listStatement(filter.order ?? DEFAULT_INSIGHT_ORDER).all({ ...bind(projectId, filter), limit, offset });
    },
    /**
     * A whole list answer (the page with its envelope) rendered by `render`, by request URL
     * (which holds the project, the filters and the window): the last PAGE_ENTRIES of them,
     * dropped as soon as the store changes (the read cache's epoch). The caller checks access
     * first; nothing in an answer depends on who asks.
     */
    renderedPage<T>(url: string, render: () => T): T {
      const epoch = cache.get('insights:pages-epoch', () => ({}));
      if (epoch !== pagesEpoch) {
        pages.clear();
        pagesEpoch = epoch;
      }
      const hit = pages.get(url);
      if (hit !== undefined) {
        pages.delete(url); // most recently used last: the Map's order is the eviction order
        pages.set(url, hit);
        return hit as T;
      }
      const page = render();
      pages.set(url, page);
      if (pages.size > PAGE_ENTRIES) pages.delete(pages.keys().next().value!);
      return page;
    },
    count(projectId: number, filter: InsightListFilter): number {
      const bound = bind(projectId, filter);
      return cache.get(`insights:count:${JSON.stringify(bound)}`, () => count.get(bound) ?? 0);
    },
  };
}
export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
