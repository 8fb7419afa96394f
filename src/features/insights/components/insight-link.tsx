import { Link } from '@tanstack/react-router';
import { cn } from '@/components/ui/cn';

/** A link to an insight's page (at its short_id, as the production service's addresses), named by its title. */
export function InsightLink({
  projectId,
  shortId,
  title,
  className,
}: {
  projectId: number;
  shortId: string;
  title: string;
  className?: string;
}) {
  return (
    <Link
      to="/projects/$projectId/insights/$insightId"
      params={{ projectId, insightId: shortId }}
      className={cn('text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300', className)}
    >
      {title}
    </Link>
  );
}
