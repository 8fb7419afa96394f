/**
 * Result cache of the analysis endpoints. Identical requests within a short window get the
 * stored result (`is_cached: true`, the `last_refresh` of when it was computed). The key is the
 * endpoint, the project (its id, time zone, week start, test account filters), the normalised
 * parameters and the event store's write version, so any write makes earlier results stale.
 * Concurrent identical requests share one computation.
 */

export const DEFAULT_CACHE_TTL_MS = 60_000;
export const DEFAULT_CACHE_ENTRIES = 500;

export interface CacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => Date;
}

export interface Cached<T> {
  result: T;
  is_cached: boolean;
  /** ISO time the result was computed. */
  last_refresh: string;
}

/** JSON with object keys sorted and undefined dropped: equal parameters give equal text. */
export function normalise(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, walk((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(walk(value)) ?? 'null';
}

export function cacheKey(parts: {
  endpoint: string;
  project: unknown;
  params: unknown;
  version: string | number;
}): string {
  return normalise([parts.endpoint, parts.project, parts.params, String(parts.version)]);
}

interface Entry {
  at: number;
  refreshed: string;
  value: Promise<unknown>;
}

export interface AnalyticsCache {
  /**
   * The cached result of `key` while younger than the TTL (and than `maxAgeMs` when given:
   * a caller asking for a fresher result), else a new computation.
   */
  get<T>(key: string, compute: () => Promise<T>, maxAgeMs?: number): Promise<Cached<T>>;
  /** The time-to-live of entries, in milliseconds. */
  readonly ttlMs: number;
  clear(): void;
  readonly size: number;
}

export function createAnalyticsCache(options: CacheOptions = {}): AnalyticsCache {
  const ttl = options.ttlMs ?? DEFAULT_CACHE_TTL_MS;
  const max = options.maxEntries ?? DEFAULT_CACHE_ENTRIES;
  const now = options.now ?? (() => new Date());
  const entries = new Map<string, Entry>();

  return {
    async get<T>(key: string, compute: () => Promise<T>, maxAgeMs?: number): Promise<Cached<T>> {
      const at = now();
      const hit = entries.get(key);
      if (hit && at.getTime() - hit.at < Math.min(ttl, maxAgeMs ?? ttl)) {
        // Most recently used last: the Map's order is the eviction order.
        entries.delete(key);
        entries.set(key, hit);
        return { result: (await hit.value) as T, is_cached: true, last_refresh: hit.refreshed };
      }
      const value = compute();
      const entry: Entry = { at: at.getTime(), refreshed: at.toISOString(), value };
      entries.delete(key);
      entries.set(key, entry);
      while (entries.size > max) entries.delete(entries.keys().next().value as string);
      try {
        return { result: await value, is_cached: false, last_refresh: entry.refreshed };
      } catch (error) {
        if (entries.get(key) === entry) entries.delete(key);
        throw error;
      }
    },
    ttlMs: ttl,
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}
