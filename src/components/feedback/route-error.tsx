import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { AlertTriangle } from 'lucide-react';
import { useEffect } from 'react';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import { Button, buttonClasses } from '@/components/ui/button';

function titleFor(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong';
  if (error.status === 0) return "Can't reach the server";
  if (error.status === 403) return 'Not allowed';
  if (error.status === 404) return 'Not found';
  if (error.status >= 500) return 'The server ran into a problem';
  return 'Something went wrong';
}

/**
 * Where a page that is not there (404) leads back to: the address one level up, named by its last
 * part (`/organizations/x/domains/y` → "Back to domains"); null at the top.
 */
export function wayUp(pathname: string): { to: string; label: string } | null {
  const parts = pathname.split('/').filter(Boolean);
  if (parts.length < 2) return null;
  const up = parts.slice(0, -1);
  return { to: `/${up.join('/')}`, label: `Back to ${decodeURIComponent(up.at(-1)!).replace(/-/g, ' ')}` };
}

/**
 * Each route's error boundary: the error in words, a way to try again and, for a page that is
 * not there, the way up. Its heading is the
 * page's h1 unless the page keeps its own header above it (a list page: `headingLevel={2}`).
 */
export function RouteError({ error, reset, headingLevel = 1 }: ErrorComponentProps & { headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();

  useEffect(() => {
    // Let suspense queries fetch again when the route re-renders.
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);

  // A 401 is being handled: the app is on its way to sign-in.
  if (isApiError(error) && error.status === 401) return null;
  // Trying again finds nothing more: the way up is what helps.
  const up = isApiError(error) && error.status === 404 ? wayUp(router.state.location.pathname) : null;

  return (
    <div
      role="alert"
      className="mx-auto my-8 max-w-xl rounded-lg border border-red-200 bg-red-50 p-6 dark:border-red-900 dark:bg-red-950"
    >
      <div className="flex items-start gap-3">
        <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700 dark:text-red-300" />
        <div className="space-y-3">
          <Heading className="text-lg font-semibold text-red-900 dark:text-red-100">{titleFor(error)}</Heading>
          <p className="text-sm text-red-900 dark:text-red-100">{describeError(error)}</p>
          <div className="flex flex-wrap gap-2">
            {up ? (
              <Link to={up.to as '/'} className={buttonClasses('secondary')}>
                {up.label}
              </Link>
            ) : null}
            <Button
              onClick={() => {
                reset();
                void router.invalidate();
              }}
            >
              Try again
            </Button>
          </div>
        </div>
      </div>
    </div>
  );
}
