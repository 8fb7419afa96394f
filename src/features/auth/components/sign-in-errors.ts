import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';

const originOf = (url: string) => {
  try {
    return new URL(url, window.location.href).origin;
  } catch {
    return url;
  }
};

/** What went wrong while signing in, in words. */
export function signInErrorMessage(error: unknown, baseUrl: string): string {
  if (!isApiError(error)) return describeError(error);
  if (error.status === 0) {
    const elsewhere = originOf(baseUrl) !== window.location.origin;
    return `Server unreachable: nothing answered at ${baseUrl}. Check the server URL and that the server is running.${
      elsewhere
        ? ' This dashboard connects only to its own origin and the API origins its server allows: start that server with --api-origin or --upstream to allow another.'
        : ''
    }`;
  }
  if (error.code === 'not_an_api') {
    return `Not the analytics API: ${baseUrl} answered, but not like the analytics API. Check the server URL.`;
  }
  if (error.type === 'invalid_response') {
    return `Not the analytics API: the answer from ${baseUrl} was not understood. Check the server URL.`;
  }
  if (error.status === 401) {
    return 'Invalid API key: the server did not accept it. Check that you copied the whole key and that it has not been revoked.';
  }
  if (error.status === 403) return `This key cannot be used here: ${error.detail}`;
  if (error.status === 429) return 'Too many attempts: wait a moment, then try again.';
  if (error.status >= 500) return `The server ran into a problem (HTTP ${error.status}). Try again in a moment.`;
  return `Sign-in failed: ${error.detail}`;
}
