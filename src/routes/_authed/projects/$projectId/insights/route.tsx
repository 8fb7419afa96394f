import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/projects/$projectId/insights')({
  staticData: { crumb: 'Insights' },
});
