import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, useMatches, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isApiError } from '@/lib/api-client';
import { Button, buttonClasses } from '@/components/ui/button';
import { ErrorNotice } from './error-notice';

function titleFor(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong';
  if (error.status === 0) return "Can't reach the server";
  if (error.status === 403) return 'Not allowed';
  if (error.status === 404) return 'Not found';
  if (error.status >= 500) return 'The server ran into a problem';
  return 'Something went wrong';
}

/** A path without its trailing slash (an index route's `/organizations/` is `/organizations`). */
const bare = (path: string) => path.replace(/\/+$/, '') || '/';

/**
 * Where a page that is not there (404) leads back to: the nearest page above it whose
 * breadcrumb is a linked name of its own ("Back to Batch exports"), not a name read from the
 * server (which may be what is missing); null when there is none.
 */
export function wayUp(
  pathname: string,
  crumbs: ReadonlyArray<{ pathname: string; crumb: unknown; isLink: boolean }>,
): { to: string; label: string } | null {
  const here = bare(pathname);
  const above = crumbs.filter(
    (c) =>
      typeof c.crumb === 'string' && c.isLink && bare(c.pathname) !== here && here.startsWith(`${bare(c.pathname)}/`),
  );
  const nearest = above.sort((a, b) => bare(b.pathname).length - bare(a.pathname).length)[0];
  return nearest ? { to: bare(nearest.pathname), label: `Back to ${nearest.crumb as string}` } : null;
}

/**
 * Each route's error boundary: the error in words, a way to try again and, for a page that is
 * not there, the way up. Its heading is the
 * page's h1 unless the page keeps its own header above it (a list page: `headingLevel={2}`).
 */
export function RouteError({ error, reset, headingLevel = 1 }: ErrorComponentProps & { headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const router = useRouter();
  const matches = useMatches();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();

  useEffect(() => {
    // Let suspense queries fetch again when the route re-renders.
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);

  // A 401 is being handled: the app is on its way to sign-in.
  if (isApiError(error) && error.status === 401) return null;
  // Trying again finds nothing more: the way up is what helps.
  const up =
    isApiError(error) && error.status === 404
      ? wayUp(
          router.state.location.pathname,
          matches.map((m) => ({
            pathname: m.pathname,
            crumb: m.staticData.crumb,
            isLink: m.staticData.crumbIsLink !== false,
          })),
        )
      : null;

  return (
    <ErrorNotice title={titleFor(error)} error={error} as={Heading} className="mx-auto my-8 max-w-xl p-6">
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
    </ErrorNotice>
  );
}
