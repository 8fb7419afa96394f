import { z } from 'zod';

/** Page sizes a list offers; anything else in the URL falls back to the default. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const PAGE_DEFAULTS = { page: 1, pageSize: 20 } as const;

/** `?page=&pageSize=` of a server-paginated list, validated: a bad value is the default, never an error. */
export const pageSearchSchema = z.object({
  page: z.number().int().min(1).default(PAGE_DEFAULTS.page).catch(PAGE_DEFAULTS.page),
  pageSize: z
    .number()
    .int()
    .refine((size) => (PAGE_SIZES as readonly number[]).includes(size))
    .default(PAGE_DEFAULTS.pageSize)
    .catch(PAGE_DEFAULTS.pageSize),
});
