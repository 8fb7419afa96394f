import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDateTime } from '@/lib/dates';
import { CopyButton } from '@/components/ui/copy-button';
import { Detail, DetailsList } from '@/components/ui/details-list';
import { PageTitle } from '@/components/layout/page-title';
import { projectQueries } from '../api/projects.queries';
import { SendEvents } from './send-events';

function weekStartLabel(day: number | null): string {
  if (day === 1) return 'Monday';
  if (day === 0) return 'Sunday';
  return 'Sunday (default)';
}

interface ProjectOverviewProps {
  projectId: number;
  /** Renders the link to the project's organization (the organizations feature provides it). */
  organizationLink: (organizationId: string) => ReactNode;
  /** Whether events arrive, and the insights opened last (the insights feature provides it). */
  activity: ReactNode;
}

const heading = 'text-lg font-semibold';

/** A project at a glance: is data arriving, how to send it, and its settings. */
export function ProjectOverview({ projectId, organizationLink, activity }: ProjectOverviewProps) {
  const { data: project } = useSuspenseQuery(projectQueries.detail(projectId));
  return (
    <div className="max-w-5xl space-y-8">
      <PageTitle title={project.name} description="Is data arriving, how to send it, and the project's settings." />
      <section aria-labelledby="activity" className="space-y-3">
        <h2 id="activity" className={heading}>
          Activity
        </h2>
        {activity}
      </section>
      <section aria-labelledby="send-events" className="max-w-3xl space-y-3">
        <h2 id="send-events" className={heading}>
          Send events
        </h2>
        <SendEvents token={project.api_token} />
      </section>
      <section aria-labelledby="settings" className="max-w-3xl space-y-3">
        <h2 id="settings" className={heading}>
          Settings
        </h2>
        <DetailsList>
          <Detail label="Name">{project.name}</Detail>
          <Detail label="ID">
            <span className="font-mono text-xs">{project.id}</span>
          </Detail>
          <Detail label="Organization">{organizationLink(project.organization)}</Detail>
          <Detail label="Time zone">{project.timezone}</Detail>
          <Detail label="Week starts on">{weekStartLabel(project.week_start_day)}</Detail>
          <Detail label="API token">
            <span className="flex flex-wrap items-center gap-2">
              <code
                title={project.api_token}
                className="min-w-0 max-w-full truncate rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs dark:bg-gray-800"
              >
                {project.api_token}
              </code>
              <CopyButton value={project.api_token} what="API token" />
            </span>
          </Detail>
          <Detail label="Created">
            <time dateTime={project.created_at}>{formatDateTime(project.created_at)}</time>
          </Detail>
        </DetailsList>
      </section>
    </div>
  );
}
