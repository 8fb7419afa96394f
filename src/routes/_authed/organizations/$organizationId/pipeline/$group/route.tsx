import { createFileRoute, notFound } from '@tanstack/react-router';
import { groupLabel, isGroupSlug } from '@/features/pipeline/api/pipeline-groups';

/** A pipeline group: `pipeline/destinations`, `pipeline/frontend-apps`, `pipeline/import-apps` (any other is a 404). */
export const Route = createFileRoute('/_authed/organizations/$organizationId/pipeline/$group')({
  params: {
    parse: ({ group }) => {
      if (!isGroupSlug(group)) throw notFound();
      return { group };
    },
    stringify: ({ group }) => ({ group }),
  },
  staticData: {
    crumb: ({ params }) => (isGroupSlug(String(params.group)) ? groupLabel(params.group as 'destinations') : null),
  },
});
