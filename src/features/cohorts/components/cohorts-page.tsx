import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { cohortEndpoints, type Cohort } from '@/contract/cohorts';
import { ListPage, PrimaryAction, usePageSearch, type Column } from '@/components/list-kit';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/dates';
import { cohortQueries } from '../api/cohorts.queries';
import { cohortKind, cohortName } from './cohort-kind';
import { cohortsHeader } from './cohorts-page-states';

const route = getRouteApi('/_authed/projects/$projectId/cohorts/');

function cohortColumns(projectId: number): Column<Cohort>[] {
  return [
    {
      header: 'Name',
      cell: (c) => (
        <Link
          to="/projects/$projectId/cohorts/$cohortId"
          params={{ projectId, cohortId: c.id }}
          className="font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
        >
          {cohortName(c)}
        </Link>
      ),
    },
    { header: 'Type', cell: (c) => <Badge tone={c.is_static ? 'neutral' : 'info'}>{cohortKind(c)}</Badge> },
    {
      header: 'Persons',
      className: 'text-right tabular-nums',
      headerClassName: 'text-right',
      cell: (c) => (c.is_calculating ? 'Calculating…' : c.count === null ? '—' : c.count.toLocaleString('en-US')),
    },
    {
      header: 'Created',
      cell: (c) => (c.created_at ? <time dateTime={c.created_at}>{formatDateTime(c.created_at)}</time> : '—'),
    },
  ];
}

const cohortId = (c: Cohort) => String(c.id);

/** The project's cohorts with their sizes, and the way to a new one. */
export function CohortsPage() {
  const { projectId } = route.useParams();
  const navigate = route.useNavigate();
  const { params } = usePageSearch();
  const { data } = useSuspenseQuery(cohortQueries.list(projectId, params));
  const columns = useMemo(() => cohortColumns(projectId), [projectId]);
  return (
    <ListPage
      {...cohortsHeader}
      action={
        <PrimaryAction
          scope={cohortEndpoints.create.access}
          onClick={() => void navigate({ to: '/projects/$projectId/cohorts/new', params: { projectId } })}
        >
          New cohort
        </PrimaryAction>
      }
      data={data}
      columns={columns}
      getRowId={cohortId}
      empty={{
        title: 'No cohorts yet',
        children: 'Use “New cohort” to upload a list of persons or describe who belongs.',
      }}
    />
  );
}
