import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { FunnelParamsInput } from '@/contract/analytics-params';
import { isGroupActor, type FunnelActor, type FunnelGroupActor, type FunnelPerson } from '@/contract/persons';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { describeError } from '@/lib/error-messages';
import { formatDateTime } from '@/lib/dates';
import { useFocusReturn } from '@/lib/focus-return';
import { toast } from '@/lib/toast';
import { useActorWords } from '../../api/use-actor-words';
import {
  allFunnelPersons,
  FUNNEL_PERSONS_DOWNLOAD_MAX,
  FUNNEL_PERSONS_PAGE_SIZE,
  funnelPersonsQueries,
  type FunnelPersonsTarget,
} from '../../api/funnel-persons.queries';
import { capitalized, PERSONS, type ActorWords } from '../../lib/actor-words';
import { downloadCsv } from '../../lib/download';
import { csvText } from '../../lib/result-grid';
import { orderedSteps, stepName as nameOf } from './funnel-steps';

export interface FunnelPersonsPanelProps {
  projectId: number;
  params: FunnelParamsInput;
  /** `step` is 1-based: converted = reached it, dropped = reached the step before and not it. */
  target: FunnelPersonsTarget | null;
  /** The step's name in the title; by default the step's name from `params`. */
  stepName?: string | undefined;
  onClose: () => void;
}

/** The panel's title: which persons (or groups), at which step. */
export function funnelPersonsTitle(
  target: FunnelPersonsTarget,
  stepName?: string,
  words: ActorWords = PERSONS,
): string {
  const where = target.dropped ? `dropped off before step ${target.step}` : `converted at step ${target.step}`;
  return `${capitalized(words.many)} ${words.groups ? 'that' : 'who'} ${where}${stepName ? `: ${stepName}` : ''}`;
}

/**
 * A right-hand side sheet listing the persons behind a funnel step's count (the step's people
 * URL), a page at a time; for a funnel aggregated by a group type, its groups (companies…). Radix Dialog: focus moves in and is trapped, Escape closes, and focus
 * returns to the count that opened it.
 */
export function FunnelPersonsPanel({ target, ...props }: FunnelPersonsPanelProps) {
  if (!target) return null;
  return <PersonsSheet {...props} target={target} />;
}

/** The step's name as the builder shows it (its custom name, else its event in words). */
function nameOfStep(params: FunnelParamsInput, step: number): string | undefined {
  const entry = orderedSteps(params.events)[step - 1];
  return entry ? nameOf(entry) : undefined;
}

function PersonsSheet({
  projectId,
  params,
  target,
  stepName: givenName,
  onClose,
}: FunnelPersonsPanelProps & { target: FunnelPersonsTarget }) {
  const stepName = givenName ?? nameOfStep(params, target.step);
  // Opened without a Radix trigger: focus goes back to the step's count that opened it.
  const focusReturn = useFocusReturn(true);
  const words = useActorWords(projectId, params.aggregation_group_type_index);
  const title = funnelPersonsTitle(target, stepName, words);
  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          {...focusReturn}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(36rem,100vw)] flex-col border-l border-gray-200 bg-white shadow-xl dark:border-gray-700 dark:bg-gray-900"
        >
          <div className="flex items-start justify-between gap-4 border-b border-gray-200 p-4 dark:border-gray-800">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold wrap-anywhere">{title}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-gray-600 dark:text-gray-400">
                {target.breakdownValue !== undefined ? `Breakdown: ${target.breakdownValue}. ` : ''}
                {words.groups
                  ? `Each ${words.one} once, by name (or key).`
                  : 'Each person once, by email (or first distinct ID).'}
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost" size="sm" aria-label="Close">
                <X aria-hidden="true" className="size-4" />
              </Button>
            </Dialog.Close>
          </div>
          {/* A new target starts on its first page. */}
          <PersonsPages
            key={JSON.stringify(target)}
            projectId={projectId}
            params={params}
            target={target}
            title={title}
            words={words}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** One step's persons (or groups): what the page list and the CSV download both read. */
interface StepActorsProps {
  projectId: number;
  params: FunnelParamsInput;
  target: FunnelPersonsTarget;
  title: string;
  words: ActorWords;
}

function PersonsPages({ projectId, params, target, title, words }: StepActorsProps) {
  const [offset, setOffset] = useState(0);
  const previousRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const pressed = useRef<'previous' | 'next' | null>(null);
  const query = useQuery(funnelPersonsQueries.page(projectId, params, target, offset));
  const page = query.data?.results[0];
  const people = page?.people ?? [];
  const hasNext = Boolean(query.data?.next);
  const stale = query.isPlaceholderData;
  const atStart = offset === 0;
  const atEnd = !stale && !hasNext;

  // The button just pressed turns disabled at either end: the keyboard stays on the other one,
  // moved before the page paints so focus is never left on the body.
  useLayoutEffect(() => {
    if (atEnd && pressed.current === 'next') previousRef.current?.focus();
    if (atStart && pressed.current === 'previous') nextRef.current?.focus();
  }, [atStart, atEnd]);
  const go = (to: number, button: 'previous' | 'next') => {
    pressed.current = button;
    setOffset(Math.max(0, to));
  };

  return (
    <>
      {/* Scrolls on its own: focusable so the keyboard can scroll it too (axe: scrollable-region-focusable). */}
      <div
        role="region"
        aria-label={capitalized(words.many)}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reached by Tab (axe).
        tabIndex={0}
        className="min-h-0 flex-1 overflow-y-auto p-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
        aria-busy={query.isFetching || undefined}
      >
        {query.isPending ? (
          <div role="status" aria-label={`Loading ${words.many}`} className="space-y-2">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : query.isError ? (
          <div
            role="alert"
            className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          >
            <p>
              The {words.many} could not be loaded. {describeError(query.error)}
            </p>
            <Button size="sm" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : people.length === 0 ? (
          <p className="rounded-md border border-dashed border-gray-300 p-6 text-center text-sm text-gray-700 dark:border-gray-700 dark:text-gray-300">
            {offset === 0 ? `No ${words.many} here for this date range.` : `No more ${words.many}.`}
          </p>
        ) : words.groups ? (
          <GroupsTable groups={people.filter(isGroupActor)} words={words} caption={title} dim={stale} />
        ) : (
          <PersonsTable
            projectId={projectId}
            people={people.filter((p): p is FunnelPerson => !isGroupActor(p))}
            caption={title}
            dim={stale}
          />
        )}
      </div>
      <nav
        aria-label={`${capitalized(words.many)} pages`}
        className="flex items-center justify-between gap-2 border-t border-gray-200 p-4 text-sm dark:border-gray-800"
      >
        <span aria-live="polite" className="text-gray-700 dark:text-gray-300">
          {pageSummary(people.length, offset, atEnd, target, words)}
        </span>
        <div className="flex flex-wrap gap-2">
          <DownloadPersons projectId={projectId} params={params} target={target} title={title} words={words} />
          <Button
            size="sm"
            ref={previousRef}
            disabled={atStart}
            onClick={() => go(offset - FUNNEL_PERSONS_PAGE_SIZE, 'previous')}
          >
            Previous
          </Button>
          <Button
            ref={nextRef}
            size="sm"
            disabled={atEnd}
            onClick={() => go(offset + FUNNEL_PERSONS_PAGE_SIZE, 'next')}
          >
            Next
          </Button>
        </div>
      </nav>
    </>
  );
}

/**
 * Under the list: "3 companies converted" when one page holds them all (groups), else which of
 * them the page shows ("Persons 26–30").
 */
function pageSummary(
  shown: number,
  offset: number,
  atEnd: boolean,
  target: FunnelPersonsTarget,
  words: ActorWords,
): string {
  if (shown === 0) return '';
  if (words.groups && offset === 0 && atEnd)
    return `${shown} ${shown === 1 ? words.one : words.many} ${target.dropped ? 'dropped off' : 'converted'}`;
  return `${capitalized(words.many)} ${offset + 1}–${offset + shown}`;
}

/** A group's name as the list shows it: its `name` property, else its key. */
const groupName = (g: FunnelGroupActor) =>
  typeof g.group_properties.name === 'string' && g.group_properties.name !== '' ? g.group_properties.name : g.group_key;

/** The CSV of a step's actors: persons (name, email, distinct ids, first seen, id) or groups (name, key, first seen). */
function csvLines(actors: readonly FunnelActor[], words: ActorWords): string[][] {
  if (words.groups) {
    return [
      [capitalized(words.one), 'Key', 'First seen'],
      ...actors.filter(isGroupActor).map((g) => [groupName(g), g.group_key, g.created_at]),
    ];
  }
  return [
    ['Person', 'Email', 'Distinct IDs', 'First seen', 'Person ID'],
    ...actors
      .filter((p): p is FunnelPerson => !isGroupActor(p))
      .map((p) => [
        p.name,
        typeof p.properties.email === 'string' ? p.properties.email : '',
        p.distinct_ids.join(' '),
        p.created_at ?? '',
        p.uuid,
      ]),
  ];
}

/** Every person (or group) of the step, not only this page, as CSV. */
function DownloadPersons({ projectId, params, target, title, words }: StepActorsProps) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { people, more } = await allFunnelPersons(projectId, params, target);
      downloadCsv(csvText(csvLines(people, words)), title);
      if (more)
        toast.success(
          `Downloaded the first ${FUNNEL_PERSONS_DOWNLOAD_MAX.toLocaleString()} ${words.many}: the step has more.`,
        );
    } catch (error) {
      toast.error(`Couldn't download the ${words.many}: ${describeError(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="sm" disabled={busy} onClick={() => void download()}>
      <Download aria-hidden="true" className="size-4" />
      {busy ? 'Downloading…' : 'Download CSV'}
    </Button>
  );
}

/** One row of the list: the actor's name (a link for persons), its second column and when first seen. */
interface ActorRow {
  key: string;
  name: ReactNode;
  second: string;
  firstSeen: string | null;
}

/** The persons' or groups' table: the first column names them, the second (distinct ids, or key) hides on narrow screens. */
function ActorsTable({
  headers,
  rows,
  caption,
  dim,
}: {
  headers: [string, string];
  rows: readonly ActorRow[];
  caption: string;
  dim: boolean;
}) {
  return (
    <table className={`w-full text-left text-sm ${dim ? 'opacity-60' : ''}`}>
      <caption className="sr-only">{caption}</caption>
      <thead className="text-xs text-gray-600 uppercase dark:text-gray-400">
        <tr>
          <th scope="col" className="py-2 pr-3 font-medium">
            {headers[0]}
          </th>
          <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">
            {headers[1]}
          </th>
          <th scope="col" className="py-2 font-medium">
            First seen
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row" className="py-2 pr-3 font-medium [overflow-wrap:anywhere]">
              {r.name}
            </th>
            <td className="hidden py-2 pr-3 text-gray-700 [overflow-wrap:anywhere] sm:table-cell dark:text-gray-300">
              {r.second}
            </td>
            <td className="py-2 whitespace-nowrap text-gray-700 dark:text-gray-300">
              {r.firstSeen ? formatDateTime(r.firstSeen) : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PersonsTable({
  projectId,
  people,
  caption,
  dim,
}: {
  projectId: number;
  people: readonly FunnelPerson[];
  caption: string;
  dim: boolean;
}) {
  const rows = people.map((p): ActorRow => ({
    key: p.uuid,
    // The person's page (properties, recent events).
    name: (
      <Link
        to="/projects/$projectId/persons/$personId"
        params={{ projectId, personId: p.uuid }}
        className="text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
      >
        {p.name}
      </Link>
    ),
    second: p.distinct_ids.join(', '),
    firstSeen: p.created_at,
  }));
  return <ActorsTable headers={['Person', 'Distinct IDs']} rows={rows} caption={caption} dim={dim} />;
}

function GroupsTable({
  groups,
  words,
  caption,
  dim,
}: {
  groups: readonly FunnelGroupActor[];
  words: ActorWords;
  caption: string;
  dim: boolean;
}) {
  const rows = groups.map((g): ActorRow => ({
    key: g.group_key,
    name: groupName(g),
    second: g.group_key,
    firstSeen: g.created_at,
  }));
  return <ActorsTable headers={[capitalized(words.one), 'Key']} rows={rows} caption={caption} dim={dim} />;
}
