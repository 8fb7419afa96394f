import { Link } from '@tanstack/react-router';
import type { Organization } from '@/contract/organizations';
import { projectSummarySchema } from '@/contract/projects';
import { formatDateTime } from '@/lib/dates';
import { Detail, DetailsList } from '@/components/ui/details-list';
import { membershipLevelLabel, pluginsAccessLabel } from './levels';

function Timestamp({ value }: { value: string }) {
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

/** The read-only fields of an organization. */
export function OrganizationDetails({ organization }: { organization: Organization }) {
  const projects = organization.teams.flatMap((team) => {
    const parsed = projectSummarySchema.safeParse(team);
    return parsed.success ? [parsed.data] : [];
  });
  return (
    <DetailsList>
      <Detail label="ID">
        <span className="font-mono text-xs">{organization.id}</span>
      </Detail>
      <Detail label="Slug">
        <span className="font-mono text-xs">{organization.slug}</span>
      </Detail>
      <Detail label="Created">
        <Timestamp value={organization.created_at} />
      </Detail>
      <Detail label="Updated">
        <Timestamp value={organization.updated_at} />
      </Detail>
      <Detail label="Your level">{membershipLevelLabel(organization.membership_level)}</Detail>
      <Detail label="Members">{organization.member_count}</Detail>
      <Detail label="Plugins access level">{pluginsAccessLabel(organization.plugins_access_level)}</Detail>
      <Detail label="Customer ID">{organization.customer_id ?? '—'}</Detail>
      <Detail label="Projects">
        {projects.length === 0 ? (
          'None'
        ) : (
          <ul className="space-y-1">
            {projects.map((project) => (
              <li key={project.id}>
                <Link
                  to="/projects/$projectId"
                  params={{ projectId: project.id }}
                  className="text-indigo-700 underline underline-offset-4 dark:text-indigo-300"
                >
                  {project.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Detail>
    </DetailsList>
  );
}
