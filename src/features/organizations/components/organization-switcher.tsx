import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { SwitcherMenu } from '@/components/layout/switcher-menu';
import { organizationQueries, SWITCHER_PAGE } from '../api/organizations.queries';

/** Jumps to another organization's page; shows the selected one. */
export function OrganizationSwitcher({ organizationId }: { organizationId: string | undefined }) {
  const { data: list } = useQuery(organizationQueries.list(SWITCHER_PAGE));
  const { data: selected, isError } = useQuery({
    ...organizationQueries.detail(organizationId ?? ''),
    enabled: organizationId !== undefined,
  });
  const known = selected?.name ?? list?.results.find((o) => o.id === organizationId)?.name;
  const current = organizationId ? (known ?? (isError ? 'Unknown organization' : '…')) : null;
  return (
    <SwitcherMenu
      kind="Organization"
      current={current}
      placeholder="Select an organization"
      emptyText="No organizations"
      entries={list?.results.map((organization) => ({
        key: organization.id,
        label: organization.name,
        selected: organization.id === organizationId,
        link: <Link to="/organizations/$organizationId" params={{ organizationId: organization.id }} />,
      }))}
    />
  );
}
