import { useRouterState } from '@tanstack/react-router';

/** A thin bar at the top of the page while the router loads the next route. */
export function NavigationProgress() {
  const pending = useRouterState({ select: (state) => state.status === 'pending' });
  if (!pending) return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-indigo-200 dark:bg-indigo-950"
    >
      <div className="nav-progress-bar h-full w-2/5 bg-indigo-600 dark:bg-indigo-400" />
    </div>
  );
}
