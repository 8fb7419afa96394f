import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { organizationQueries } from '../api/organizations.queries';

/** The organization's name (breadcrumbs); its id until the name is known. */
export function OrganizationName({ organizationId }: { organizationId: string }) {
  const { data, isError } = useQuery(organizationQueries.detail(organizationId));
  return <>{data?.name ?? (isError ? 'Unknown organization' : '…')}</>;
}

/** A link to the organization's page, by name. */
export function OrganizationLink({ organizationId }: { organizationId: string }) {
  return (
    <Link
      to="/organizations/$organizationId"
      params={{ organizationId }}
      className="text-indigo-700 underline underline-offset-4 dark:text-indigo-300"
    >
      <OrganizationName organizationId={organizationId} />
    </Link>
  );
}
