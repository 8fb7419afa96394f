import { linkOptions } from '@tanstack/react-router';
import {
  ChartLine,
  DatabaseBackup,
  Globe,
  LayoutDashboard,
  MailPlus,
  Settings,
  Users,
  UsersRound,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

/**
 * The sidebar's tree, mirroring the API. Each entry is a `linkOptions` checked against the route
 * tree: a path or params that do not exist fail the type-check. A new screen adds its route file
 * and one line here (members, invites, domains, pipeline apps, insights come with their routes).
 */
const ignoreSearch = { includeSearch: false } as const;

/** Under the selected organization. */
export const organizationNav = (organizationId: string) =>
  [
    {
      label: 'Settings',
      icon: Settings,
      link: linkOptions({
        to: '/organizations/$organizationId',
        params: { organizationId },
        activeOptions: { ...ignoreSearch, exact: true },
      }),
    },
    {
      label: 'Batch exports',
      icon: DatabaseBackup,
      link: linkOptions({
        to: '/organizations/$organizationId/batch-exports',
        params: { organizationId },
        activeOptions: ignoreSearch,
      }),
    },
    {
      label: 'Pipeline apps',
      icon: Workflow,
      link: linkOptions({
        to: '/organizations/$organizationId/pipeline/$group',
        params: { organizationId, group: 'destinations' },
        activeOptions: { ...ignoreSearch, includeParams: false },
      }),
    },
    {
      label: 'Members',
      icon: Users,
      link: linkOptions({
        to: '/organizations/$organizationId/members',
        params: { organizationId },
        activeOptions: ignoreSearch,
      }),
    },
    {
      label: 'Invites',
      icon: MailPlus,
      link: linkOptions({
        to: '/organizations/$organizationId/invites',
        params: { organizationId },
        activeOptions: ignoreSearch,
      }),
    },
    {
      label: 'Domains',
      icon: Globe,
      link: linkOptions({
        to: '/organizations/$organizationId/domains',
        params: { organizationId },
        activeOptions: ignoreSearch,
      }),
    },
  ] satisfies NavEntry[];

/** Under the selected project. */
export const projectNav = (projectId: number) =>
  [
    {
      label: 'Overview',
      icon: LayoutDashboard,
      link: linkOptions({
        to: '/projects/$projectId',
        params: { projectId },
        activeOptions: { ...ignoreSearch, exact: true },
      }),
    },
    {
      label: 'Insights',
      icon: ChartLine,
      link: linkOptions({ to: '/projects/$projectId/insights', params: { projectId }, activeOptions: ignoreSearch }),
    },
    {
      label: 'Cohorts',
      icon: UsersRound,
      link: linkOptions({ to: '/projects/$projectId/cohorts', params: { projectId }, activeOptions: ignoreSearch }),
    },
  ] satisfies NavEntry[];

export interface NavEntry {
  label: string;
  icon: LucideIcon;
  link: { to: string };
}
