import { Link } from '@tanstack/react-router';
import { BarChart3, Building2, FolderKanban } from 'lucide-react';
import type { ReactNode } from 'react';
import { organizationNav, projectNav } from './nav-tree';

const linkClasses =
  'flex items-center gap-2 rounded-md px-2.5 py-1.5 text-sm text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800';
const activeLinkClasses = 'bg-indigo-50 font-medium text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200';

function NavEntries({ entries }: { entries: ReturnType<typeof organizationNav> | ReturnType<typeof projectNav> }) {
  return (
    <ul className="mt-1 space-y-0.5 pl-3">
      {entries.map((entry) => (
        <li key={entry.link.to}>
          <Link {...entry.link} className={linkClasses} activeProps={{ className: activeLinkClasses }}>
            <entry.icon aria-hidden="true" className="size-4" />
            {entry.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

interface SidebarProps {
  organizationId: string | undefined;
  projectId: number | undefined;
  organizationSwitcher: ReactNode;
  projectSwitcher: ReactNode;
}

/** Organizations → the selected organization → its screens; Projects → the selected project → its screens. */
export function Sidebar({ organizationId, projectId, organizationSwitcher, projectSwitcher }: SidebarProps) {
  return (
    <div className="flex h-full flex-col gap-6 p-4">
      <Link to="/organizations" className="flex items-center gap-2 px-1 text-base font-semibold">
        <BarChart3 aria-hidden="true" className="size-5 text-indigo-700 dark:text-indigo-300" />
        Analytics admin
      </Link>
      <nav aria-label="Main">
        <ul className="space-y-5">
          <li>
            <Link
              to="/organizations"
              activeOptions={{ exact: true, includeSearch: false }}
              className={linkClasses}
              activeProps={{ className: activeLinkClasses }}
            >
              <Building2 aria-hidden="true" className="size-4" />
              Organizations
            </Link>
            <div className="mt-2 pl-3">{organizationSwitcher}</div>
            {organizationId ? <NavEntries entries={organizationNav(organizationId)} /> : null}
          </li>
          <li>
            <h2 className="flex items-center gap-2 px-2.5 py-1.5 text-sm text-gray-700 dark:text-gray-300">
              <FolderKanban aria-hidden="true" className="size-4" />
              Projects
            </h2>
            <div className="mt-2 pl-3">{projectSwitcher}</div>
            {projectId !== undefined ? <NavEntries entries={projectNav(projectId)} /> : null}
          </li>
        </ul>
      </nav>
    </div>
  );
}
