import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type ListQuery, type Page } from '../../src/contract/index.ts';

export interface PageWindow {
  limit: number;
  offset: number;
}

/** Default 100, clamped at 1000; `limit=0` means the default (as the production service does). */
export function pageWindow(query: ListQuery | undefined): PageWindow {
  const requested = query?.limit;
  const limit = requested === undefined || requested === 0 ? DEFAULT_PAGE_SIZE : Math.min(requested, MAX_PAGE_SIZE);
  return { limit, offset: query?.offset ?? 0 };
}

function withWindow(requestUrl: string, limit: number, offset: number | null): string {
  const url = new URL(requestUrl);
  url.searchParams.set('limit', String(limit));
  if (offset === null) url.searchParams.delete('offset');
  else url.searchParams.set('offset', String(offset));
  return url.toString();
}

/** The absolute link to the page after `window` of the request's list. */
export const nextPageUrl = (requestUrl: string, { limit, offset }: PageWindow): string => withWindow(requestUrl, limit, offset + limit);

/** The Page envelope with absolute `next`/`previous` links, null at either end. */
export function buildPage<T>(requestUrl: string, { limit, offset }: PageWindow, count: number, results: T[]): Page<T> {
  const next = offset + limit < count ? nextPageUrl(requestUrl, { limit, offset }) : null;
  const previous = offset <= 0 ? null : withWindow(requestUrl, limit, offset - limit <= 0 ? null : offset - limit);
  return { count, next, previous, results };
}

/** Runs a count and a page query for `query`'s window and wraps them. */
export function paginate<T>(
  requestUrl: string,
  query: ListQuery | undefined,
  count: () => number,
  fetchPage: (window: PageWindow) => T[],
): Page<T> {
  const window = pageWindow(query);
  return buildPage(requestUrl, window, count(), fetchPage(window));
}
