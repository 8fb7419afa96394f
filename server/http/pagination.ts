import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type ListQuery, type Page } from '../../src/contract/index.ts';
import { JsonText } from './json-text.ts';

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
export const nextPageUrl = (requestUrl: string, { limit, offset }: PageWindow): string =>
  withWindow(requestUrl, limit, offset + limit);

/** The Page envelope without its results. */
export type PageHead = Omit<Page<unknown>, 'results'>;

/** `count` with absolute `next`/`previous` links, null at either end. */
export function pageHead(requestUrl: string, { limit, offset }: PageWindow, count: number): PageHead {
  const next = offset + limit < count ? nextPageUrl(requestUrl, { limit, offset }) : null;
  const previous = offset <= 0 ? null : withWindow(requestUrl, limit, offset - limit <= 0 ? null : offset - limit);
  return { count, next, previous };
}

/**
 * The Page envelope around results already rendered as JSON text (kept by the read cache, so a
 * repeated list renders nothing but these four fields). Same text as JSON.stringify of the Page.
 */
export function pageJson<T>({ count, next, previous }: PageHead, results: JsonText<T[]>): JsonText<Page<T>> {
  return JsonText.assembled(
    `{"count":${count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":${results.text}}`,
  );
}

/** Runs a count and a page query for `query`'s window and wraps them. */
export function paginate<T>(
  requestUrl: string,
  query: ListQuery | undefined,
  count: () => number,
  fetchPage: (window: PageWindow) => T[],
): Page<T> {
  const window = pageWindow(query);
  return { ...pageHead(requestUrl, window, count()), results: fetchPage(window) };
}
