import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback } from 'react';
import { PAGE_DEFAULTS, pageParams, type PageParams } from '@/lib/page-search';

export interface PageSearch {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** The same page as the API's limit/offset. */
  params: PageParams;
  setPage: (page: number) => void;
}

/**
 * The list's page, from the URL (`?page=&pageSize=`, validated by the route with
 * `pageSearchSchema`): reading it and moving to another page need no props.
 */
export function usePageSearch(): PageSearch {
  const search = useSearch({ strict: false });
  const navigate = useNavigate();
  const page = search.page ?? PAGE_DEFAULTS.page;
  const pageSize = search.pageSize ?? PAGE_DEFAULTS.pageSize;
  const setPage = useCallback(
    (next: number) => void navigate({ to: '.', search: (previous) => ({ ...previous, page: next }) }),
    [navigate],
  );
  return { page, pageSize, params: pageParams(page, pageSize), setPage };
}
