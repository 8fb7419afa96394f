import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/organizations/$organizationId/domains')({
  staticData: { crumb: 'Domains' },
});
