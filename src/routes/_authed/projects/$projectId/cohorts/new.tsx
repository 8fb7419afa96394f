import { createFileRoute } from '@tanstack/react-router';
import { NewCohortPage } from '@/features/cohorts/components/new-cohort-page';

export const Route = createFileRoute('/_authed/projects/$projectId/cohorts/new')({
  staticData: { crumb: 'New cohort' },
  component: NewCohortPage,
});
