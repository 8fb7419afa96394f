import { listPageStates, type ListHeader } from '@/components/list-kit';

// Kept apart from the page: the route's pending and error components load with the route tree.
export const organizationsHeader: ListHeader = {
  title: 'Organizations',
  description: 'The organizations your API key can reach.',
};

export const { PageSkeleton: OrganizationsPageSkeleton, PageError: OrganizationsPageError } = listPageStates(
  organizationsHeader,
  5,
);
