import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/organizations/$organizationId/members')({
  staticData: { crumb: 'Members' },
});
