import { Blocks, DatabaseBackup, Globe, LayoutDashboard, LineChart, Mail, Settings, Users, type LucideIcon } from 'lucide-react';

/**
 * The sidebar's tree, mirroring the API. An entry is shown only once its route exists, so a
 * later screen appears in the sidebar by adding its route file (and, if new, one line here).
 */
export interface NavEntry {
  label: string;
  /** Full route path with `$params`, as in the route tree. */
  to: string;
  icon: LucideIcon;
  /** Active only on this exact path (an index page), not on its children. */
  exact?: boolean;
}

/** Under the selected organization (`$organizationId`). */
export const organizationNav: readonly NavEntry[] = [
  { label: 'Settings', to: '/organizations/$organizationId', icon: Settings, exact: true },
  { label: 'Members', to: '/organizations/$organizationId/members', icon: Users },
  { label: 'Invites', to: '/organizations/$organizationId/invites', icon: Mail },
  { label: 'Domains', to: '/organizations/$organizationId/domains', icon: Globe },
  { label: 'Batch exports', to: '/organizations/$organizationId/batch-exports', icon: DatabaseBackup },
  { label: 'Pipeline apps', to: '/organizations/$organizationId/pipeline', icon: Blocks },
];

/** Under the selected project (`$projectId`). */
export const projectNav: readonly NavEntry[] = [
  { label: 'Overview', to: '/projects/$projectId', icon: LayoutDashboard, exact: true },
  { label: 'Insights', to: '/projects/$projectId/insights', icon: LineChart },
];
