import { Link } from '@tanstack/react-router';
import { cn } from '@/components/ui/cn';
import type { BuilderKind } from './builder-search';

export const KIND_WORDS: Record<BuilderKind, { tab: string; title: string }> = {
  trends: { tab: 'Trends', title: 'New trend' },
  funnels: { tab: 'Funnels', title: 'New funnel' },
  retention: { tab: 'Retention', title: 'New retention' },
  paths: { tab: 'Paths', title: 'New paths' },
};

const linkClasses =
  'rounded-md px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800';
const activeClasses =
  'bg-indigo-50 text-indigo-800 hover:bg-indigo-50 dark:bg-indigo-950 dark:text-indigo-200 dark:hover:bg-indigo-950';

/** Links between the four builders of a new insight (each opens with its defaults). */
export function KindNav({ kind, projectId }: { kind: BuilderKind; projectId: number }) {
  const links = {
    trends: (
      <Link
        to="/projects/$projectId/insights/new/$kind"
        params={{ projectId, kind: 'trends' }}
        className={cn(linkClasses, kind === 'trends' && activeClasses)}
        aria-current={kind === 'trends' ? 'page' : undefined}
      >
        {KIND_WORDS.trends.tab}
      </Link>
    ),
    funnels: (
      <Link
        to="/projects/$projectId/insights/new/$kind"
        params={{ projectId, kind: 'funnels' }}
        className={cn(linkClasses, kind === 'funnels' && activeClasses)}
        aria-current={kind === 'funnels' ? 'page' : undefined}
      >
        {KIND_WORDS.funnels.tab}
      </Link>
    ),
    retention: (
      <Link
        to="/projects/$projectId/insights/new/$kind"
        params={{ projectId, kind: 'retention' }}
        className={cn(linkClasses, kind === 'retention' && activeClasses)}
        aria-current={kind === 'retention' ? 'page' : undefined}
      >
        {KIND_WORDS.retention.tab}
      </Link>
    ),
    paths: (
      <Link
        to="/projects/$projectId/insights/new/$kind"
        params={{ projectId, kind: 'paths' }}
        className={cn(linkClasses, kind === 'paths' && activeClasses)}
        aria-current={kind === 'paths' ? 'page' : undefined}
      >
        {KIND_WORDS.paths.tab}
      </Link>
    ),
  };
  return (
    <nav aria-label="Insight type" className="flex flex-wrap gap-1">
      {links.trends}
      {links.funnels}
      {links.retention}
      {links.paths}
    </nav>
  );
}
