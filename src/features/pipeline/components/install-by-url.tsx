import { url } from '@/contract/fields';
import { z } from '@/contract/z';
import type { GroupSlug } from '../api/pipeline-groups';
import { PluginCreateForm } from './plugin-create-form';

// Spaces around a pasted URL are not the user's mistake: trimmed before the address is checked.
const installByUrlSchema = z.object({ url: z.pipe(z.string().check(z.trim()), url()) });

/** Import apps have no repository endpoint (the API gives them list, create, retrieve): install by URL. */
export function InstallByUrl({ organizationId, slug }: { organizationId: string; slug: GroupSlug }) {
  return (
    <PluginCreateForm
      organizationId={organizationId}
      slug={slug}
      field="url"
      schema={installByUrlSchema}
      toBody={(url) => ({ plugin_type: 'repository', url })}
      created={(plugin) => `“${plugin.name}” installed`}
      heading="Install from the repository"
      headingId="install-url-heading"
      label="Repository URL"
      type="url"
      className="w-96"
      description="For example https://github.com/analytics-plugins/csv-import"
      submitLabel="Install"
      pendingLabel="Installing…"
    />
  );
}
