import { createFileRoute, notFound } from '@tanstack/react-router';
import { uuidSchema } from '@/contract/common';
import { organizationQueries } from '@/features/organizations/api/organizations.queries';
import { OrganizationName } from '@/features/organizations/components/organization-name';

/**
 * An organization: `$organizationId` is checked once here (the API's ids are UUIDs: anything else
 * is a 404 without asking the server); its crumb is its name; its pages are children.
 */
export const Route = createFileRoute('/_authed/organizations/$organizationId')({
  params: {
    parse: ({ organizationId }) => {
      if (!uuidSchema.safeParse(organizationId).success) throw notFound();
      return { organizationId };
    },
    stringify: ({ organizationId }) => ({ organizationId }),
  },
  staticData: { crumb: ({ params }) => <OrganizationName organizationId={String(params.organizationId)} /> },
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(organizationQueries.detail(params.organizationId)),
});
