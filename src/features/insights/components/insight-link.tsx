import { Link } from '@tanstack/react-router';
import { cn } from '@/components/ui/cn';

/** A link to an insight's page, named by its title. */
export function InsightLink({ projectId, insightId, title, className }: { projectId: number; insightId: number; title: string; className?: string }) {
  return (
    <Link
      to="/projects/$projectId/insights/$insightId"
      params={{ projectId, insightId }}
      className={cn('text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300', className)}
    >
      {title}
    </Link>
  );
}
