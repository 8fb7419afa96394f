import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

export interface SortableListProps {
  /** The rows' ids, in their order. */
  ids: readonly string[];
  /** A row was dropped at another position (0-based). */
  onMove: (from: number, to: number) => void;
  /** A row's name inside a sentence ("series A", "Webhook"): the announcements say it. */
  nameOf: (id: string) => string;
  /** What a row is ("series", "app"): the instructions say it. */
  noun: string;
  /** The list's accessible name. */
  label: string;
  className?: string;
  /** The rows: a SortableItem each. */
  children: ReactNode;
}

const capital = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/**
 * An ordered list whose rows are moved by dragging their handle (mouse, touch) or with the
 * keyboard (Space or Enter on the handle, the arrow keys, Space or Enter to drop, Escape to
 * cancel), every step announced to screen readers. The list says where a row went (`onMove`);
 * its owner changes the order.
 */
export function SortableList({ ids, onMove, nameOf, noun, label, className, children }: SortableListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    // A touch that moves at once is a scroll of the page, not a drag.
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const position = (id: string | number) => ids.indexOf(String(id));
  const name = (id: string | number) => nameOf(String(id));
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${name(active.id)}. It is at position ${position(active.id) + 1} of ${ids.length}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${capital(name(active.id))} is over position ${position(over.id) + 1} of ${ids.length}.`
        : `${capital(name(active.id))} is no longer over a position.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Moved ${name(active.id)} to position ${position(over.id) + 1}.`
        : `${capital(name(active.id))} was dropped where it was.`,
    onDragCancel: ({ active }) =>
      `Moving was cancelled. ${capital(name(active.id))} stays at position ${position(active.id) + 1}.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const from = position(active.id);
    const to = position(over.id);
    if (from >= 0 && to >= 0 && from !== to) onMove(from, to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: `To reorder a ${noun}, press Space or Enter on its handle, move it with the arrow keys, and press Space or Enter to drop it there. Escape cancels.`,
        },
      }}
    >
      <SortableContext items={ids as string[]} strategy={verticalListSortingStrategy}>
        <ol className={className} aria-label={label}>
          {children}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

interface SortableItemProps {
  /** The row's id, one of the list's `ids`. */
  id: string;
  /** The handle's accessible name: "Reorder series A". */
  handleLabel: string;
  className?: string;
  /** Added to `className` while the row is dragged. */
  draggingClassName?: string;
  /** The row's content, given its drag handle (a button: focus it, Space picks the row up) to place. */
  children: (handle: ReactNode) => ReactNode;
}

/** One row of a SortableList: an `<li>` that moves while dragged, with its handle. */
export function SortableItem({ id, handleLabel, className, draggingClassName, children }: SortableItemProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
  });
  const handle = (
    <button
      type="button"
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      aria-label={handleLabel}
      className="inline-flex h-8 w-6 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-gray-500 hover:bg-gray-100 active:cursor-grabbing dark:text-gray-400 dark:hover:bg-gray-800"
    >
      <GripVertical aria-hidden className="size-4" />
    </button>
  );
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-sortable-row=""
      className={cn(className, isDragging && draggingClassName)}
    >
      {children(handle)}
    </li>
  );
}
