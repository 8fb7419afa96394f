import { listPageStates, type ListHeader } from '@/components/list-kit';

// Kept apart from the pages: the routes' pending and error components load apart from them.
export const membersHeader: ListHeader = {
  title: 'Members',
  description: 'Who belongs to this organization, and what each of them may change.',
};
export const invitesHeader: ListHeader = {
  title: 'Invites',
  description: 'People invited to this organization who have not joined yet. An invite works for 3 days.',
};
export const domainsHeader: ListHeader = {
  title: 'Domains',
  description:
    'Email domains this organization owns: verified domains can add people automatically and enforce single sign-on.',
};

export const { PageSkeleton: MembersPageSkeleton, PageError: MembersPageError } = listPageStates(membersHeader, 6);
export const { PageSkeleton: InvitesPageSkeleton, PageError: InvitesPageError } = listPageStates(invitesHeader, 6);
export const { PageSkeleton: DomainsPageSkeleton, PageError: DomainsPageError } = listPageStates(domainsHeader, 4);
