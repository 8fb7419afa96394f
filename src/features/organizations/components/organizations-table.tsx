import { Link } from '@tanstack/react-router';
import type { Organization } from '@/contract/organizations';
import { formatDate } from '@/lib/dates';
import { Table, Td, Th } from '@/components/data-table/table';

export function OrganizationsTable({ organizations }: { organizations: Organization[] }) {
  return (
    <Table caption="Organizations">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>Slug</Th>
          <Th className="text-right">Members</Th>
          <Th className="text-right">Projects</Th>
          <Th>Created</Th>
        </tr>
      </thead>
      <tbody>
        {organizations.map((organization) => (
          <tr key={organization.id} className="hover:bg-gray-50 dark:hover:bg-gray-900">
            <Td className="max-w-xs break-words">
              <Link
                to="/organizations/$organizationId"
                params={{ organizationId: organization.id }}
                className="font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
              >
                {organization.name}
              </Link>
            </Td>
            <Td className="max-w-48 font-mono text-xs break-all">{organization.slug}</Td>
            <Td className="text-right tabular-nums">{organization.member_count}</Td>
            <Td className="text-right tabular-nums">{organization.teams.length}</Td>
            <Td className="whitespace-nowrap">
              <time dateTime={organization.created_at}>{formatDate(organization.created_at)}</time>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
