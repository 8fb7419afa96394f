import { useSuspenseQuery } from '@tanstack/react-query';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { Link2Off } from 'lucide-react';
import { isApiError } from '@/lib/api-client';
import { RouteError } from '@/components/feedback/route-error';
import { Skeleton } from '@/components/ui/skeleton';
import { insightQueries } from '../api/insights.queries';
import { insightTitle } from '../api/insight-title';
import { InsightResult } from './insight-result';

function SharedLayout({ children }: { children: React.ReactNode }) {
  return <main className="mx-auto max-w-5xl space-y-6 p-6">{children}</main>;
}

/** A shared insight, read-only, for anyone with its link (no key, no sign-in). */
export function SharedInsightPage({ accessToken }: { accessToken: string }) {
  const { data: insight } = useSuspenseQuery(insightQueries.shared(accessToken));
  const title = insightTitle(insight);
  return (
    <SharedLayout>
      <div>
        <h1 className="text-2xl font-semibold wrap-anywhere">{title}</h1>
        {insight.description ? (
          <p className="mt-1 text-sm whitespace-pre-line text-gray-700 wrap-anywhere dark:text-gray-300">
            {insight.description}
          </p>
        ) : null}
      </div>
      <InsightResult insight={insight} title={title} />
    </SharedLayout>
  );
}

export function SharedInsightSkeleton() {
  return (
    <SharedLayout>
      <div role="status" aria-label="Loading the shared insight" className="space-y-4">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-[300px] w-full" />
      </div>
    </SharedLayout>
  );
}

/** A 404: the link was turned off or replaced. Anything else: the error in words. */
export function SharedInsightError(props: ErrorComponentProps) {
  if (isApiError(props.error) && props.error.status === 404) {
    return (
      <SharedLayout>
        <div
          role="alert"
          className="mx-auto max-w-xl rounded-lg border border-gray-300 p-8 text-center dark:border-gray-700"
        >
          <Link2Off aria-hidden="true" className="mx-auto mb-3 size-8 text-gray-600 dark:text-gray-400" />
          <h1 className="text-xl font-semibold">This link is not valid any more</h1>
          <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
            Whoever shared this insight has turned sharing off or replaced the link. Ask them for the new one.
          </p>
        </div>
      </SharedLayout>
    );
  }
  return (
    <SharedLayout>
      <RouteError {...props} />
    </SharedLayout>
  );
}
