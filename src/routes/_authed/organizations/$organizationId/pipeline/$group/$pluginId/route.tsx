import { createFileRoute, notFound } from '@tanstack/react-router';

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
  staticData: { crumb: 'App' },
});
