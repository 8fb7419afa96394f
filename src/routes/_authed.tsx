import { createFileRoute, redirect, useParams } from '@tanstack/react-router';
import { AppShell } from '@/components/layout/app-shell';
import { Sidebar } from '@/components/layout/sidebar';
import { OrganizationSwitcher } from '@/features/organizations/components/organization-switcher';
import { useProjectOrganizationId } from '@/features/projects/components/project-name';
import { ProjectSwitcher } from '@/features/projects/components/project-switcher';
import { currentKeyQuery, getCredentials, useKeepCurrentKey } from '@/lib/auth';

/** Every page behind sign-in. Without a key, or with one the server rejects, sign in first. */
export const Route = createFileRoute('/_authed')({
  beforeLoad: ({ context, location }) => {
    if (!getCredentials()) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    // The key's scopes, for scope-aware actions. Not awaited: the page's own requests start at
    // the same time, and a key the server no longer accepts (401 on any request) opens sign-in
    // through the query client's onUnauthorized.
    void context.queryClient.prefetchQuery(currentKeyQuery());
  },
  component: AuthedLayout,
});

function AuthedLayout() {
  useKeepCurrentKey();
  const params = useParams({ strict: false });
  const projectOrganizationId = useProjectOrganizationId(params.projectId);
  const organizationId = params.organizationId ?? projectOrganizationId;
  return (
    <AppShell
      sidebar={
        <Sidebar
          organizationId={organizationId}
          projectId={params.projectId}
          organizationSwitcher={<OrganizationSwitcher organizationId={organizationId} />}
          projectSwitcher={<ProjectSwitcher organizationId={organizationId} projectId={params.projectId} />}
        />
      }
    />
  );
}
