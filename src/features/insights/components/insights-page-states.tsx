import { TableSkeleton } from '@/components/data-table/table-skeleton';
import { RouteError } from '@/components/feedback/route-error';
import { listPageStates, type ListHeader } from '@/components/list-kit';
import type { ErrorComponentProps } from '@tanstack/react-router';

// Kept apart from the pages: the routes' pending and error components load apart from them.
export const insightsHeader: ListHeader = {
  title: 'Insights',
  description: "This project's saved analyses: trends, funnels, retention and paths.",
};

export const { PageSkeleton: InsightsPageSkeleton, PageError: InsightsPageError } = listPageStates(insightsHeader, 6);

/** What an insight's page looks like while it loads. */
export function InsightPageSkeleton() {
  return <TableSkeleton columns={4} rows={8} label="Loading insight" />;
}

export function InsightPageError(props: ErrorComponentProps) {
  return <RouteError {...props} />;
}
