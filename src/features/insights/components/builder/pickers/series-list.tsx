import {
  closestCenter, DndContext, KeyboardSensor, PointerSensor, TouchSensor, useSensor, useSensors, type Announcements, type DragEndEvent,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Plus } from 'lucide-react';
import { memo, useId, useState } from 'react';
import { ANALYTICS_LIMITS, type EntityInput } from '@/contract/analytics-params';
import { Button } from '@/components/ui/button';
import { lowerFirst, seriesLetter } from './labels';
import { newUid } from './filter-model';
import type { ErrorFor } from './property-filters';
import { SeriesRow } from './series-row';

export interface SeriesListProps {
  projectId: number;
  /** 'trends': series A, B, … with maths; 'funnel': Step 1, 2, … without. */
  mode: 'trends' | 'funnel';
  value: readonly EntityInput[];
  onChange: (next: EntityInput[]) => void;
  errorFor?: ErrorFor;
  /** The most entries allowed (ANALYTICS_LIMITS.series / .funnelSteps by default). */
  max?: number;
}

const words = (mode: SeriesListProps['mode']) =>
  mode === 'trends'
    ? { noun: 'series', plural: 'series', name: (i: number) => `Series ${seriesLetter(i)}`, badge: seriesLetter, add: 'Add series', min: 'A trend needs at least one series.' }
    : { noun: 'step', plural: 'steps', name: (i: number) => `Step ${i + 1}`, badge: (i: number) => String(i + 1), add: 'Add step', min: 'A funnel needs at least one step.' };

/** Entries as emitted: type events, `order` = position. */
const normalize = (entries: readonly EntityInput[]): EntityInput[] => entries.map((e, i) => ({ ...e, type: 'events', order: i }));

/**
 * The series of a trend or the steps of a funnel: one row each, reordered by dragging (mouse,
 * touch or keyboard: Space on the handle, arrows, Space) or by the move buttons.
 */
export const SeriesList = memo(function SeriesList({ projectId, mode, value, onChange, errorFor, max }: SeriesListProps) {
  const w = words(mode);
  const limit = max ?? (mode === 'trends' ? ANALYTICS_LIMITS.series : ANALYTICS_LIMITS.funnelSteps);
  const [uids, setUids] = useState<string[]>(() => value.map(() => newUid('s')));
  // Rows keep their identity while the list changes here; a list of another length from outside gets new ones.
  const ids = uids.length === value.length ? uids : value.map((_, i) => uids[i] ?? `${uids.join('|')}#${i}`);
  if (ids !== uids) setUids(value.map(() => newUid('s')));
  const reasonId = useId();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const canAdd = value.length < limit;

  const emit = (entries: EntityInput[], nextIds: string[]) => {
    setUids(nextIds);
    onChange(normalize(entries));
  };
  const move = (from: number, to: number) => {
    if (to < 0 || to >= value.length || from === to) return;
    emit(arrayMove([...value], from, to), arrayMove(ids, from, to));
  };
  const position = (id: string | number) => ids.indexOf(String(id));
  const nameOf = (id: string | number) => lowerFirst(w.name(position(id)));
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}. It is at position ${position(active.id) + 1} of ${ids.length}.`,
    onDragOver: ({ active, over }) => (over ? `${capital(nameOf(active.id))} is over position ${position(over.id) + 1} of ${ids.length}.` : `${capital(nameOf(active.id))} is no longer over a position.`),
    onDragEnd: ({ active, over }) => (over ? `Moved ${nameOf(active.id)} to position ${position(over.id) + 1}.` : `${capital(nameOf(active.id))} was dropped where it was.`),
    onDragCancel: ({ active }) => `Moving was cancelled. ${capital(nameOf(active.id))} stays at position ${position(active.id) + 1}.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over) move(position(active.id), position(over.id));
  };

  return (
    <div className="space-y-2">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable: `To reorder a ${w.noun}, press Space or Enter on its handle, move it with the arrow keys, and press Space or Enter to drop it there. Escape cancels.`,
          },
        }}
      >
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <ol className="space-y-2" aria-label={capital(w.plural)}>
            {value.map((entry, i) => (
              <SeriesRow
                key={ids[i]}
                uid={ids[i]!}
                projectId={projectId}
                mode={mode}
                entry={entry}
                index={i}
                count={value.length}
                name={w.name(i)}
                badge={w.badge(i)}
                canAdd={canAdd}
                removeReason={w.min}
                errorFor={errorFor}
                onChange={(next) => emit(value.map((e, j) => (j === i ? next : e)), ids)}
                onRemove={() => emit(value.filter((_, j) => j !== i), ids.filter((_, j) => j !== i))}
                onDuplicate={() => emit([...value.slice(0, i + 1), { ...entry }, ...value.slice(i + 1)], [...ids.slice(0, i + 1), newUid('s'), ...ids.slice(i + 1)])}
                onMove={(to) => move(i, to)}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
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
        {!canAdd ? <span id={reasonId} className="text-xs text-gray-600 dark:text-gray-400">At most {limit} {w.plural}.</span> : null}
      </div>
    </div>
  );
});

const capital = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** A new entry: a pageview (counted in total for trends). */
function nextEntry(mode: SeriesListProps['mode'], _current: readonly EntityInput[]): EntityInput {
  return mode === 'trends' ? { id: '$pageview', type: 'events', math: 'total' } : { id: '$pageview', type: 'events' };
}
