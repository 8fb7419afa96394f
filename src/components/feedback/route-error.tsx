import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { AlertTriangle } from 'lucide-react';
import { useEffect } from 'react';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import { Button } from '@/components/ui/button';

function titleFor(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong';
  if (error.status === 0) return "Can't reach the server";
  if (error.status === 403) return 'Not allowed';
  if (error.status === 404) return 'Not found';
  if (error.status >= 500) return 'The server ran into a problem';
  return 'Something went wrong';
}

/**
 * Each route's error boundary: the error in words and a way to try again. Its heading is the
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
  );
}
