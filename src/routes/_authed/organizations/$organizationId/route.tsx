import { createFileRoute } from '@tanstack/react-router';
import { organizationQueries } from '@/features/organizations/api/organizations.queries';
import { OrganizationName } from '@/features/organizations/components/organization-name';

/** An organization: its crumb is its name; its pages (settings, members, …) are children. */
export const Route = createFileRoute('/_authed/organizations/$organizationId')({
  staticData: { crumb: ({ params }) => <OrganizationName organizationId={params.organizationId ?? ''} /> },
  loader: ({ context, params }) => context.queryClient.ensureQueryData(organizationQueries.detail(params.organizationId)),
});
