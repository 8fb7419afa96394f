import type { Db } from './db.ts';

/**
 * Memoises hot reads (key lookup, organization lists) until the database changes.
 *
 * The cache is dropped whenever anything may have written: this connection's writes are
 * counted (every writing statement's `run`, every `exec`), and writes by other connections —
 * the `key` CLI revoking a key while the server runs — show in SQLite's `PRAGMA data_version`,
 * which changes when another connection commits. A read therefore never sees data older than
 * the last commit, and costs one pragma instead of the query when nothing changed.
 */
export interface ReadCache {
  get<T>(key: string, load: () => T): T;
}

const MAX_ENTRIES = 1000;

export function createReadCache(db: Db): ReadCache {
  let writes = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (!statement.reader) {
      const run = statement.run.bind(statement);
      statement.run = ((...params: unknown[]) => {
        try {
          return run(...params);
        } finally {
          writes += 1;
        }
      }) as typeof statement.run;
    }
    return statement;
  }) as typeof db.prepare;
  const exec = db.exec.bind(db);
  db.exec = ((source: string) => {
    try {
      return exec(source);
    } finally {
      writes += 1;
    }
  }) as typeof db.exec;

  const dataVersion = prepare('PRAGMA data_version').pluck();
  const entries = new Map<string, unknown>();
  let seenVersion = -1;
  let seenWrites = -1;

  return {
    get<T>(key: string, load: () => T): T {
      const version = dataVersion.get() as number;
      if (version !== seenVersion || writes !== seenWrites) {
        entries.clear();
        seenVersion = version;
        seenWrites = writes;
      }
      if (entries.has(key)) return entries.get(key) as T;
      const value = load();
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, value);
      return value;
    },
  };
}
