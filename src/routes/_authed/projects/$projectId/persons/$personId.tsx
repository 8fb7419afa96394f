import { createFileRoute, notFound, stripSearchParams } from '@tanstack/react-router';
import { PAGE_DEFAULTS as defaults, pageSearchSchema } from '@/lib/page-search';
import { personQueries } from '@/features/persons/api/persons.queries';
import { PersonName } from '@/features/persons/components/person-name';
import { PersonPage } from '@/features/persons/components/person-page';
import { PersonPageError, PersonPageSkeleton } from '@/features/persons/components/person-page-states';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One person (`$personId` its UUID, else a 404), and a page of its events (`?page=`). Its crumb is its name. */
export const Route = createFileRoute('/_authed/projects/$projectId/persons/$personId')({
  params: {
    parse: ({ personId }) => {
      if (!UUID.test(personId)) throw notFound();
      return { personId: personId.toLowerCase() };
    },
    stringify: ({ personId }) => ({ personId }),
  },
  validateSearch: pageSearchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  staticData: {
    crumb: ({ params }) => <PersonName projectId={Number(params.projectId)} personId={String(params.personId)} />,
  },
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(personQueries.detail(params.projectId, params.personId)),
  pendingComponent: PersonPageSkeleton,
  errorComponent: PersonPageError,
  component: PersonPage,
});
