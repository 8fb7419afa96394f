import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/projects')({
  staticData: { crumb: 'Projects', crumbIsLink: false },
});
