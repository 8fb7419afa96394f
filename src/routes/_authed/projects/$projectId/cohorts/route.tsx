import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/projects/$projectId/cohorts')({
  staticData: { crumb: 'Cohorts' },
});
