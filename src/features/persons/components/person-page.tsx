import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { FunnelPerson, PersonEvent } from '@/contract/persons';
import { ErrorNotice } from '@/components/feedback/error-notice';
import { PageTitle } from '@/components/layout/page-title';
import { DataTable, usePageSearch, type Column } from '@/components/list-kit';
import { Pagination } from '@/components/data-table/pagination';
import { Button } from '@/components/ui/button';
import { Detail, DetailsList } from '@/components/ui/details-list';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/dates';
import { personQueries } from '../api/persons.queries';

const route = getRouteApi('/_authed/projects/$projectId/persons/$personId');

/** A property's value as text: strings as they are, anything else as its JSON (React prints it as text, never markup). */
export function propertyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

type Property = readonly [key: string, value: unknown];
const propertyColumns: readonly Column<Property>[] = [
  { header: 'Property', cell: ([key]) => key, className: 'w-1/3 font-medium wrap-anywhere' },
  {
    header: 'Value',
    cell: ([, value]) => propertyText(value),
    className: 'font-mono text-xs wrap-anywhere whitespace-pre-wrap',
  },
];
const propertyKey = ([key]: Property) => key;

function Properties({ person }: { person: FunnelPerson }) {
  const entries = Object.entries(person.properties).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section className="min-w-0 space-y-3" aria-labelledby="person-properties">
      <h2 id="person-properties" className="text-lg font-semibold">
        Properties
      </h2>
      {entries.length === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          No properties yet: they come with $set and $set_once on this person&apos;s events.
        </p>
      ) : (
        <DataTable
          caption={`Properties of ${person.name}`}
          rows={entries}
          columns={propertyColumns}
          getRowId={propertyKey}
        />
      )}
    </section>
  );
}

/** Where an event happened, when the SDK said: the page's URL, else the app's screen. */
const placeOf = (e: PersonEvent) => propertyText(e.properties.$current_url ?? e.properties.$screen_name);

const eventColumns: readonly Column<PersonEvent>[] = [
  { header: 'Event', cell: (e) => e.event, className: 'font-medium' },
  {
    header: 'When',
    cell: (e) => <time dateTime={e.timestamp}>{formatDateTime(e.timestamp)}</time>,
    className: 'whitespace-nowrap',
  },
  { header: 'Distinct ID', cell: (e) => e.distinct_id, className: 'wrap-anywhere' },
  { header: 'URL or screen', cell: placeOf, className: 'wrap-anywhere' },
];
const eventId = (e: PersonEvent) => e.id;

function RecentEvents({ projectId, personId, name }: { projectId: number; personId: string; name: string }) {
  const { page, pageSize, params, setPage } = usePageSearch();
  const query = useQuery(personQueries.events(projectId, personId, params));
  return (
    <section className="min-w-0 space-y-3" aria-labelledby="person-events" aria-busy={query.isFetching || undefined}>
      <h2 id="person-events" className="text-lg font-semibold">
        Recent events
      </h2>
      {query.isPending ? (
        <div role="status" aria-label="Loading the events" className="space-y-2">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
      ) : query.isError ? (
        <ErrorNotice title="The events could not be loaded." error={query.error} className="p-4">
          <Button size="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </ErrorNotice>
      ) : query.data.count === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">No events from this person yet.</p>
      ) : query.data.results.length === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">
          No events on this page.{' '}
          <Button size="sm" variant="secondary" onClick={() => setPage(1)}>
            Go to the newest
          </Button>
        </p>
      ) : (
        <div className={query.isPlaceholderData ? 'opacity-60' : undefined}>
          <DataTable
            caption={`Events of ${name}, newest first`}
            rows={query.data.results}
            columns={eventColumns}
            getRowId={eventId}
          />
          <Pagination page={page} pageSize={pageSize} count={query.data.count} onPageChange={setPage} label="Events" />
        </div>
      )}
    </section>
  );
}

/** A person: who (name, distinct ids, first seen), their properties, and their events a page at a time (`?page=` in the URL). */
export function PersonPage() {
  const { projectId, personId } = route.useParams();
  const { data: person } = useSuspenseQuery(personQueries.detail(projectId, personId));
  return (
    <div className="max-w-5xl space-y-6">
      <PageTitle
        title={person.name}
        description={`${person.is_identified ? 'Identified' : 'Anonymous'} person, first seen ${person.created_at ? formatDateTime(person.created_at) : 'at an unknown time'}`}
      />
      <DetailsList>
        <Detail label="Distinct IDs">
          <ul className="space-y-1">
            {person.distinct_ids.map((d) => (
              <li key={d} className="wrap-anywhere">
                {d}
              </li>
            ))}
          </ul>
        </Detail>
        <Detail label="Person ID">
          <span className="font-mono text-xs wrap-anywhere">{person.uuid}</span>
        </Detail>
      </DetailsList>
      <Properties person={person} />
      <RecentEvents projectId={projectId} personId={personId} name={person.name} />
    </div>
  );
}
