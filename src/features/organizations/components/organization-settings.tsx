import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageTitle } from '@/components/layout/page-title';
import { organizationQueries } from '../api/organizations.queries';
import { DeleteOrganization } from './delete-organization';
import { OrganizationDetails } from './organization-details';
import { OrganizationSettingsForm } from './organization-settings-form';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

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
