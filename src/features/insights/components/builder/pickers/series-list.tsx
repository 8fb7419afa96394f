import { arrayMove } from '@dnd-kit/sortable';
import { Plus } from 'lucide-react';
import { memo, useId, useState } from 'react';
import { ANALYTICS_LIMITS, type EntityInput } from '@/contract/analytics-params';
import { SortableList } from '@/components/sortable/sortable-list';
import { Button } from '@/components/ui/button';
import { lowerFirst, seriesLetter } from './labels';
import { newUid } from './filter-model';
import type { ErrorFor } from './property-filters';
import { SeriesRow } from './series-row';
import { PERSONS, type ActorWords } from '../../../lib/actor-words';

export interface SeriesListProps {
  projectId: number;
  /** 'trends': series A, B, … with maths; 'funnel': Step 1, 2, … without. */
  mode: 'trends' | 'funnel';
  value: readonly EntityInput[];
  onChange: (next: EntityInput[]) => void;
  errorFor?: ErrorFor;
  /** The most entries allowed (ANALYTICS_LIMITS.series / .funnelSteps by default). */
  max?: number;
  /** What unique and active maths count (default persons). */
  actors?: ActorWords;
}

const words = (mode: SeriesListProps['mode']) =>
  mode === 'trends'
    ? {
        noun: 'series',
        plural: 'series',
        name: (i: number) => `Series ${seriesLetter(i)}`,
        badge: seriesLetter,
        add: 'Add series',
        min: 'A trend needs at least one series.',
      }
    : {
        noun: 'step',
        plural: 'steps',
        name: (i: number) => `Step ${i + 1}`,
        badge: (i: number) => String(i + 1),
        add: 'Add step',
        min: 'A funnel needs at least one step.',
      };

/** Entries as emitted: type events, `order` = position. */
const normalize = (entries: readonly EntityInput[]): EntityInput[] =>
  entries.map((e, i) => ({ ...e, type: 'events', order: i }));

/**
 * The series of a trend or the steps of a funnel: one row each, reordered by dragging (mouse,
 * touch or keyboard: Space on the handle, arrows, Space) or by the move buttons.
 */
export const SeriesList = memo(function SeriesList({
  projectId,
  mode,
  value,
  onChange,
  errorFor,
  max,
  actors = PERSONS,
}: SeriesListProps) {
  const w = words(mode);
  const limit = max ?? (mode === 'trends' ? ANALYTICS_LIMITS.series : ANALYTICS_LIMITS.funnelSteps);
  const [uids, setUids] = useState<string[]>(() => value.map(() => newUid('s')));
  // Rows keep their identity while the list changes here; a list of another length from outside gets new ones.
  const ids = uids.length === value.length ? uids : value.map((_, i) => uids[i] ?? `${uids.join('|')}#${i}`);
  if (ids !== uids) setUids(value.map(() => newUid('s')));
  const reasonId = useId();
  const canAdd = value.length < limit;

  const emit = (entries: EntityInput[], nextIds: string[]) => {
    setUids(nextIds);
    onChange(normalize(entries));
  };
  const move = (from: number, to: number) => {
    if (to < 0 || to >= value.length || from === to) return;
    emit(arrayMove([...value], from, to), arrayMove(ids, from, to));
  };
  const nameOf = (id: string) => lowerFirst(w.name(ids.indexOf(id)));

  return (
    <div className="space-y-2">
      <SortableList
        ids={ids}
        onMove={move}
        nameOf={nameOf}
        noun={w.noun}
        label={capital(w.plural)}
        className="space-y-2"
      >
        {value.map((entry, i) => (
          <SeriesRow
            key={ids[i]}
            uid={ids[i]!}
            projectId={projectId}
            mode={mode}
            actors={actors}
            entry={entry}
            index={i}
            count={value.length}
            name={w.name(i)}
            badge={w.badge(i)}
            canAdd={canAdd}
            removeReason={w.min}
            errorFor={errorFor}
            onChange={(next) =>
              emit(
                value.map((e, j) => (j === i ? next : e)),
                ids,
              )
            }
            onRemove={() =>
              emit(
                value.filter((_, j) => j !== i),
                ids.filter((_, j) => j !== i),
              )
            }
            onDuplicate={() =>
              emit(
                [...value.slice(0, i + 1), { ...entry }, ...value.slice(i + 1)],
                [...ids.slice(0, i + 1), newUid('s'), ...ids.slice(i + 1)],
              )
            }
            onMove={(to) => move(i, to)}
          />
        ))}
      </SortableList>
      <div className="flex items-center gap-2">
        <Button
          size="sm"
          variant="secondary"
          disabled={!canAdd}
          aria-describedby={canAdd ? undefined : reasonId}
          onClick={() => emit([...value, nextEntry(mode, value)], [...ids, newUid('s')])}
        >
          <Plus aria-hidden className="size-4" /> {w.add}
        </Button>
        {!canAdd ? (
          <span id={reasonId} className="text-xs text-gray-600 dark:text-gray-400">
            At most {limit} {w.plural}.
          </span>
        ) : null}
      </div>
    </div>
  );
});

const capital = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** A new entry: a pageview (counted in total for trends). */
function nextEntry(mode: SeriesListProps['mode'], _current: readonly EntityInput[]): EntityInput {
  return mode === 'trends' ? { id: '$pageview', type: 'events', math: 'total' } : { id: '$pageview', type: 'events' };
}
