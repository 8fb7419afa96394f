import { createFileRoute, notFound } from '@tanstack/react-router';
import type { GroupSlug } from '@/features/pipeline/api/pipeline-groups';
import { PluginName } from '@/features/pipeline/components/plugin-name';

/** One plugin of the group: detail and source editor are children. */
export const Route = createFileRoute('/_authed/organizations/$organizationId/pipeline/$group/$pluginId')({
  params: {
    parse: ({ pluginId }) => {
      const id = Number(pluginId);
      if (!Number.isInteger(id) || id <= 0) throw notFound();
      return { pluginId: id };
    },
    stringify: ({ pluginId }) => ({ pluginId: String(pluginId) }),
  },
  staticData: {
    crumb: ({ params }) => (
      <PluginName
        organizationId={String(params.organizationId)}
        slug={params.group as GroupSlug}
        pluginId={Number(params.pluginId)}
      />
    ),
  },
});
