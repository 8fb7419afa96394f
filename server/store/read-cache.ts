import type { Db } from './db.ts';

/**
 * Memoises hot reads (key lookup, organization lists) until the database changes.
 *
 * The cache is dropped whenever anything may have written: this connection's writes are
 * counted (every writing statement's `run`, every `exec`) and seen by the very next read, and
 * writes by other connections — the `key` CLI revoking a key while the server runs — show in
 * SQLite's `PRAGMA data_version`, which changes when another connection commits. The pragma
 * (~7 µs, several reads per request) is asked once per turn of the event loop: the first read
 * of a turn asks it, the others of that turn (every request the turn handles) rely on its
 * answer. So a commit elsewhere is seen by the next request, as before, and a page of cached
 * answers costs one pragma instead of one per read.
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
  /** Whether this turn of the event loop has asked the pragma (cleared by the turn's setImmediate). */
  let askedThisTurn = false;
  const nextTurn = () => {
    askedThisTurn = false;
  };

  return {
    get<T>(key: string, load: () => T): T {
      if (!askedThisTurn) {
        askedThisTurn = true;
        setImmediate(nextTurn).unref();
        const version = dataVersion.get() as number;
        if (version !== seenVersion) {
          entries.clear();
          seenVersion = version;
        }
      }
      if (writes !== seenWrites) {
        entries.clear();
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
