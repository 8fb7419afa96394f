import { isApiError } from './api-client';

/** The words used everywhere a key lacks a scope: tooltips of disabled actions and 403s. */
export function missingScopeMessage(scope: string): string {
  return `Your API key lacks the ${scope} scope`;
}

/** The scope named by a 403 body (`API key missing required scope 'x:write'`), if any. */
export function scopeFromDetail(detail: string): string | null {
  const match = /scope '([^']+)'/.exec(detail);
  return match?.[1] ?? null;
}

/** One sentence, for people, saying what went wrong. */
export function describeError(error: unknown): string {
  if (!isApiError(error)) {
    return error instanceof Error && error.message ? error.message : 'Something went wrong.';
  }
  if (error.status === 0) return error.detail;
  if (error.status === 401) return 'Your API key is invalid or has been revoked. Sign in again.';
  if (error.status === 403) {
    const scope = scopeFromDetail(error.detail);
    if (scope) return `${missingScopeMessage(scope)}.`;
    if (error.detail.includes('personal API key')) return 'This action cannot be done with a personal API key.';
    // The server says the same ("You do not have permission to perform this action.") for a
    // rule of the caller's level and for a key that does not reach the organization or project.
    return `${error.detail ? `${error.detail} ` : ''}Your level in the organization, or your API key's reach, does not allow it.`;
  }
  if (error.status === 404 && error.code === 'not_found') {
    return "Not found: it doesn't exist, or your API key can't reach it.";
  }
  if (error.status === 429) return 'Too many requests. Wait a moment and try again.';
  if (error.status >= 500) return `The server ran into a problem (HTTP ${error.status}). Try again in a moment.`;
  return error.detail;
}
