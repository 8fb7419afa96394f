import { useSuspenseQuery } from '@tanstack/react-query';
import { Section } from '@/components/layout/section';
import { PageTitle } from '@/components/layout/page-title';
import { organizationQueries } from '../api/organizations.queries';
import { DeleteOrganization } from './delete-organization';
import { OrganizationDetails } from './organization-details';
import { OrganizationSettingsForm } from './organization-settings-form';

interface OrganizationSettingsProps {
  organizationId: string;
  onDeleted: () => Promise<void>;
}

/** The organization's page: settings form, read-only details and the danger zone. */
export function OrganizationSettings({ organizationId, onDeleted }: OrganizationSettingsProps) {
  const { data: organization } = useSuspenseQuery(organizationQueries.detail(organizationId));
  return (
    <div className="max-w-3xl space-y-10">
      <PageTitle title={organization.name} description="Organization settings" />
      <Section id="organization-general" title="General">
        <OrganizationSettingsForm key={organization.id} organization={organization} />
      </Section>
      <Section id="organization-details" title="Details">
        <OrganizationDetails organization={organization} />
      </Section>
      <Section id="organization-danger-zone" title="Danger zone">
        <DeleteOrganization organization={organization} onDeleted={onDeleted} />
      </Section>
    </div>
  );
}
