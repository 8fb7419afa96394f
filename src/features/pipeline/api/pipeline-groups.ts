import type { PluginGroup } from '@/contract/plugins';

/**
 * The URL segment of each group (`pipeline/destinations`) and its label. No runtime import of
 * the contract: the routes' param parsing uses this, and it stays out of the initial JavaScript.
 */
export const GROUP_SLUGS = {
  destinations: 'pipeline_destinations',
  'frontend-apps': 'pipeline_frontend_apps',
  'import-apps': 'pipeline_import_apps',
} as const satisfies Record<string, PluginGroup>;
export type GroupSlug = keyof typeof GROUP_SLUGS;
export const GROUP_SLUG_LIST = Object.keys(GROUP_SLUGS) as GroupSlug[];
export const isGroupSlug = (value: string): value is GroupSlug => Object.hasOwn(GROUP_SLUGS, value);
const LABELS: Record<GroupSlug, string> = {
  destinations: 'Destinations',
  'frontend-apps': 'Frontend apps',
  'import-apps': 'Import apps',
};
export const groupLabel = (slug: GroupSlug) => LABELS[slug];
const ENABLED: Record<GroupSlug, string> = {
  destinations: 'An enabled destination receives every event ingested after it is enabled.',
  'frontend-apps': "An enabled app is served to this project's web site with its configuration.",
  'import-apps': 'An enabled import app can run its import job into this project.',
};
/** What enabling an app of the group in a project does, in words. */
export const groupEnabledHint = (slug: GroupSlug) => ENABLED[slug];
/** Import apps have no edit, source, activity, repository or unused endpoints (they are deleted and upgraded as the others). */
export const groupHasFullApi = (slug: GroupSlug) => slug !== 'import-apps';
/** Whether the order of a project's apps of the group means something: events go through destinations in their order. */
export const groupHasOrder = (slug: GroupSlug) => slug === 'destinations';
/**
 * Whether the group offers "Write your own" (a source plugin). Not import apps: their job is the
 * server's built-in URL import, which a source plugin never runs, and they have no source editing.
 */
export const groupTakesSourcePlugins = (slug: GroupSlug) => slug !== 'import-apps';
