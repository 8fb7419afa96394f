import { z } from '@/contract/z';

/** Page sizes a list offers; anything else in the URL falls back to the default. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const PAGE_DEFAULTS = { page: 1, pageSize: 20 } as const;

/** `?page=&pageSize=` of a server-paginated list, validated: a bad value is the default, never an error. */
export const pageNumberSchema = z.catch(z._default(z.int().check(z.gte(1)), PAGE_DEFAULTS.page), PAGE_DEFAULTS.page);

export const pageSearchSchema = z.object({
  page: pageNumberSchema,
  pageSize: z.catch(z._default(z.number().check(
    z.int(),
    z.refine((size) => (PAGE_SIZES as readonly number[]).includes(size)),
  ), PAGE_DEFAULTS.pageSize), PAGE_DEFAULTS.pageSize),
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
