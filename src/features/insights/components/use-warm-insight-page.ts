import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { whenIdle } from '@/lib/when-idle';
import { loadInsightQueries, preloadInsightChart } from './chart-preload';

// The page's chunk; the parent route ($insightId/route.tsx) has none: its loader imports the queries itself.
const INSIGHT_PAGE_ROUTE = '/_authed/projects/$projectId/insights/$insightId/';

/**
 * Once the list has painted and the browser is idle, loads the insight page's code, its queries
 * and the chart kit (not any insight's data): opening an insight from the list then waits only for its data.
 */
export function useWarmInsightPage(): void {
  const router = useRouter();
  useEffect(() => {
    const warm = () => {
      void router.loadRouteChunk(router.routesById[INSIGHT_PAGE_ROUTE]);
      preloadInsightChart(true);
      void loadInsightQueries();
    };
    return whenIdle(warm);
  }, [router]);
}
