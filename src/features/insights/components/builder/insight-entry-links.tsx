import { Link } from '@tanstack/react-router';
import { ChevronDown, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { insightEndpoints } from '@/contract/insights';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button, buttonClasses } from '@/components/ui/button';
import { Popover } from '@/components/ui/popover';
import { useCan } from '@/lib/auth';

const itemClasses =
  'block rounded-md px-3 py-2 text-sm hover:bg-gray-100 focus-visible:bg-gray-100 dark:hover:bg-gray-800 dark:focus-visible:bg-gray-800';

/** "New insight": a small menu of the four builders, each a real link (the saved-insights list's primary action). */
export function NewInsightMenu({ projectId }: { projectId: number }) {
  const [open, setOpen] = useState(false);
  const { allowed } = useCan(insightEndpoints.create.access);
  const close = () => setOpen(false);
  const button = (
    <Button variant="primary">
      <Plus aria-hidden="true" className="size-4" />
      New insight
      <ChevronDown aria-hidden="true" className="size-4" />
    </Button>
  );
  if (!allowed) return <ScopedAction scope={insightEndpoints.create.access}>{button}</ScopedAction>;
  return (
    <Popover open={open} onOpenChange={setOpen} label="New insight" align="end" className="w-56 p-1" trigger={button}>
      <nav aria-label="New insight">
        <Link
          to="/projects/$projectId/insights/new/$kind"
          params={{ projectId, kind: 'trends' }}
          className={itemClasses}
          onClick={close}
        >
          Trends
        </Link>
        <Link
          to="/projects/$projectId/insights/new/$kind"
          params={{ projectId, kind: 'funnels' }}
          className={itemClasses}
          onClick={close}
        >
          Funnel
        </Link>
        <Link
          to="/projects/$projectId/insights/new/$kind"
          params={{ projectId, kind: 'retention' }}
          className={itemClasses}
          onClick={close}
        >
          Retention
        </Link>
        <Link
          to="/projects/$projectId/insights/new/$kind"
          params={{ projectId, kind: 'paths' }}
          className={itemClasses}
          onClick={close}
        >
          Paths
        </Link>
      </nav>
    </Popover>
  );
}

/** "Edit": the insight in its builder; disabled with the reason when the key cannot write insights. */
export function EditInsightLink({ projectId, shortId }: { projectId: number; shortId: string }) {
  const { allowed } = useCan(insightEndpoints.update.access);
  const content = (
    <>
      <Pencil aria-hidden="true" className="size-4" />
      Edit
    </>
  );
  if (!allowed) {
    return (
      <ScopedAction scope={insightEndpoints.update.access}>
        <Button>{content}</Button>
      </ScopedAction>
    );
  }
  return (
    <Link
      to="/projects/$projectId/insights/$insightId/edit"
      params={{ projectId, insightId: shortId }}
      search={{}}
      className={buttonClasses()}
    >
      {content}
    </Link>
  );
}
