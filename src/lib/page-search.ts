import { z } from '@/contract/z';

/** Page sizes a list offers; anything else in the URL falls back to the default. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const PAGE_DEFAULTS = { page: 1, pageSize: 20 } as const;

/**
 * A search param of a route (`validateSearch`): a bad value in the URL is never an error. An
 * optional one is then dropped; one with a default gets the default, as a missing one does.
 */
export const optionalParam = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);
export const paramOr = <T extends z.ZodMiniType>(schema: T, fallback: z.core.util.NoUndefined<z.output<T>>) =>
  z.catch(z._default(schema, fallback), fallback);

/** `?page=&pageSize=` of a server-paginated list. */
export const pageNumberSchema = paramOr(z.int().check(z.gte(1)), PAGE_DEFAULTS.page);

export const pageSearchSchema = z.object({
  page: pageNumberSchema,
  pageSize: paramOr(
    z.int().check(z.refine((size) => (PAGE_SIZES as readonly number[]).includes(size))),
    PAGE_DEFAULTS.pageSize,
  ),
});

/** A page of a list as the API takes it. */
export interface PageParams {
  limit: number;
  offset: number;
}

/** Page `page` (1-based) of `pageSize` rows, as the API's limit/offset. */
export function pageParams(page: number, pageSize: number): PageParams {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}
