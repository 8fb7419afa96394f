import { isApiError } from '@/lib/api-client';

/** Case-insensitive substring, like the server's `search`: keeps a stale page consistent with what is typed. */
export function matchesSearch(name: string, search: string): boolean {
  return search === '' || name.toLowerCase().includes(search.toLowerCase());
}

/** An API failure in words for a picker's list. */
export function errorText(error: unknown): string {
  if (isApiError(error)) return error.detail;
  return 'Something went wrong.';
}
