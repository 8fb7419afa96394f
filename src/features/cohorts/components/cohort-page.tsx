import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { OPERATOR_WORDS, type PropertyOperator } from '@/contract/analytics-filters';
import { useMemo, useState } from 'react';
import { cohortEndpoints, type Cohort, type CohortUpdateInput } from '@/contract/cohorts';
import type { FunnelPerson } from '@/contract/persons';
import { ConfirmDelete } from '@/components/feedback/confirm-delete';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { FormError, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { describeError } from '@/lib/error-messages';
import { SectionBoundary } from '@/components/feedback/section-boundary';
import { PageTitle } from '@/components/layout/page-title';
import { DataTable, usePageSearch, type Column } from '@/components/list-kit';
import { Pagination } from '@/components/data-table/pagination';
import { Detail, DetailsList } from '@/components/ui/details-list';
import { formatDateTime } from '@/lib/dates';
import { toast } from '@/lib/toast';
import { cohortKeys } from '../api/cohorts.keys';
import { cohortMutations } from '../api/cohorts.mutations';
import { cohortQueries } from '../api/cohorts.queries';
import { cohortKind, cohortName, cohortSize } from './cohort-kind';

const route = getRouteApi('/_authed/projects/$projectId/cohorts/$cohortId');

type Criterion = {
  type?: unknown;
  key?: unknown;
  operator?: unknown;
  value?: unknown;
  negation?: unknown;
  operator_value?: unknown;
  time_value?: unknown;
  time_interval?: unknown;
  values?: Criterion[];
};

/** One criterion in words ("plan equals pro", "did purchase at least 3 times in the last 30 days"). */
function criterionWords(c: Criterion): string {
  if (Array.isArray(c.values)) return `(${c.values.map(criterionWords).join(c.type === 'OR' ? ' or ' : ' and ')})`;
  const not = c.negation === true ? 'not: ' : '';
  if (c.type === 'person') {
    const op = OPERATOR_WORDS[c.operator as PropertyOperator] ?? String(c.operator);
    return `${not}${String(c.key)} ${op}${c.value === undefined || c.value === null ? '' : ` ${Array.isArray(c.value) ? c.value.join(', ') : String(c.value)}`}`;
  }
  const window = `in the last ${String(c.time_value)} ${String(c.time_interval)}${c.time_value === 1 ? '' : 's'}`;
  if (c.value === 'not_performed_event') return `${not}did not do ${String(c.key)} ${window}`;
  const times =
    c.value === 'performed_event_multiple'
      ? ` ${c.operator === 'lte' ? 'at most' : c.operator === 'exact' ? 'exactly' : 'at least'} ${String(c.operator_value)} times`
      : '';
  return `${not}did ${String(c.key)}${times} ${window}`;
}

/** Each person's name leads to its page (properties, recent events). */
const personColumns = (projectId: number): readonly Column<FunnelPerson>[] => [
  {
    header: 'Person',
    cell: (p) => (
      <Link
        to="/projects/$projectId/persons/$personId"
        params={{ projectId, personId: p.uuid }}
        className="text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
      >
        {p.name}
      </Link>
    ),
  },
  { header: 'Distinct ids', cell: (p) => p.distinct_ids.join(', ') },
];
const personId = (p: FunnelPerson) => p.id;

function CohortPersons({ projectId, cohort }: { projectId: number; cohort: Cohort }) {
  const { page, pageSize, params, setPage } = usePageSearch();
  const columns = useMemo(() => personColumns(projectId), [projectId]);
  const { data } = useSuspenseQuery(cohortQueries.persons(projectId, cohort.id, params));
  return (
    <section className="space-y-3" aria-labelledby="cohort-persons">
      <h2 id="cohort-persons" className="text-lg font-semibold">
        Persons
      </h2>
      {data.results.length === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">Nobody is in this cohort.</p>
      ) : (
        <>
          <DataTable
            caption={`Persons of ${cohortName(cohort)}`}
            rows={data.results}
            columns={columns}
            getRowId={personId}
          />
          <Pagination
            page={page}
            pageSize={pageSize}
            count={data.count ?? cohort.count ?? 0}
            onPageChange={setPage}
            label="Persons"
          />
        </>
      )}
    </section>
  );
}

/** Recalculates a dynamic cohort with the events as they are now, or adds a CSV's persons to a static one. */
function UpdateMembers({ projectId, cohort }: { projectId: number; cohort: Cohort }) {
  const { mutateAsync, isPending } = useMutation(cohortMutations.update(projectId, cohort.id));
  const [error, setError] = useState<string | undefined>();
  const run = async (body: CohortUpdateInput) => {
    setError(undefined);
    try {
      const updated = await mutateAsync(body);
      toast.success(`${cohortName(updated)} has ${cohortSize(updated)}`);
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  return (
    <div className="space-y-2">
      {cohort.is_static ? (
        <TextField
          label="Add persons from a CSV file"
          type="file"
          accept=".csv,text/csv"
          disabled={isPending}
          description="One person per row, by distinct id or email in the first column."
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void file.text().then((csv) => run({ csv }));
          }}
        />
      ) : (
        <ScopedAction scope={cohortEndpoints.update.access}>
          <Button onClick={() => void run({})} disabled={isPending}>
            {isPending ? 'Recalculating…' : 'Recalculate'}
          </Button>
        </ScopedAction>
      )}
      <FormError message={error} />
    </div>
  );
}

/** A cohort: what defines it, its size, its persons; deleting it. */
export function CohortPage() {
  const { projectId, cohortId } = route.useParams();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const { data: cohort } = useSuspenseQuery(cohortQueries.detail(projectId, cohortId));
  const { mutateAsync: remove } = useMutation(cohortMutations.remove(projectId));
  const criteria = cohort.filters?.properties as Criterion | undefined;
  return (
    <div className="max-w-4xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageTitle title={cohortName(cohort)} description={cohort.description || `${cohortKind(cohort)} cohort`} />
        {cohort.deleted ? null : (
          <ConfirmDelete
            triggerLabel="Delete cohort"
            scope={cohortEndpoints.update.access}
            title={`Delete ${cohortName(cohort)}`}
            description="Insights that filter or break down by this cohort will stop working until it is restored."
            confirmLabel="Delete"
            onConfirm={async () => {
              await remove(cohort.id);
              toast.success(`${cohortName(cohort)} deleted`);
              await navigate({ to: '/projects/$projectId/cohorts', params: { projectId } });
              queryClient.removeQueries({ queryKey: cohortKeys.detail(projectId, cohort.id) });
            }}
          />
        )}
      </div>
      <DetailsList>
        <Detail label="Type">{cohortKind(cohort)}</Detail>
        <Detail label="Size">{cohortSize(cohort)}</Detail>
        {criteria ? (
          <Detail label="Criteria">
            {criteria.values?.length
              ? criteria.values.map(criterionWords).join(criteria.type === 'OR' ? ' or ' : ' and ')
              : 'Everyone'}
          </Detail>
        ) : null}
        <Detail label="Last calculated">
          {cohort.last_calculation ? (
            <time dateTime={cohort.last_calculation}>{formatDateTime(cohort.last_calculation)}</time>
          ) : (
            'Never'
          )}
        </Detail>
        <Detail label="ID">
          <span className="font-mono text-xs">{cohort.id}</span>
        </Detail>
      </DetailsList>
      {cohort.deleted ? null : <UpdateMembers projectId={projectId} cohort={cohort} />}
      <SectionBoundary what="The persons">
        <CohortPersons projectId={projectId} cohort={cohort} />
      </SectionBoundary>
    </div>
  );
}
