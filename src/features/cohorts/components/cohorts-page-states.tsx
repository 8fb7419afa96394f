import { listPageStates, type ListHeader } from '@/components/list-kit';

// Kept apart from the page: the route's pending and error components load apart from it.
export const cohortsHeader: ListHeader = {
  title: 'Cohorts',
  description:
    'Saved groups of persons: a static list, or everyone who matches criteria on their properties and what they did. Filter and break down insights by them.',
};

export const { PageSkeleton: CohortsPageSkeleton, PageError: CohortsPageError } = listPageStates(cohortsHeader, 5);
