import { definitionMatches } from '@/contract/definitions';
import { isApiError } from '@/lib/api-client';

/** The server's `search` match (every word, any case): keeps a stale page consistent with what is typed. */
export const matchesSearch = (name: string, search: string): boolean => definitionMatches(name, search);

/** An API failure in words for a picker's list. */
export function errorText(error: unknown): string {
  if (isApiError(error)) return error.detail;
  return 'Something went wrong.';
}
