import { createFileRoute } from '@tanstack/react-router';
import { OrganizationSettings } from '@/features/organizations/components/organization-settings';

export const Route = createFileRoute('/_authed/organizations/$organizationId/')({
  component: OrganizationSettingsRoute,
});

function OrganizationSettingsRoute() {
  const { organizationId } = Route.useParams();
  const navigate = Route.useNavigate();
  return (
    <OrganizationSettings
      organizationId={organizationId}
      onDeleted={() => navigate({ to: '/organizations', replace: true, ignoreBlocker: true })}
    />
  );
}
