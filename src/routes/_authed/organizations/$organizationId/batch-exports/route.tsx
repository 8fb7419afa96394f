import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/organizations/$organizationId/batch-exports')({
  staticData: { crumb: 'Batch exports' },
});
