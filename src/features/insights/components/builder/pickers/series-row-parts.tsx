import { useRef, useState, type ComponentProps } from 'react';
import type { EntityInput, MathType } from '@/contract/analytics-params';
import { cn } from '@/components/ui/cn';
import { isPropertyMath } from './math-options';

/** A small icon button of a series row; its label is also its tooltip. */
export function RowIconButton({
  label,
  className,
  children,
  title,
  ...props
}: ComponentProps<'button'> & { label: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={title ?? label}
      className={cn(
        'inline-flex size-7 shrink-0 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900',
        'disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100',
        className,
      )}
      {...props}
    >
      {children}
    </button>
  );
}

/** Inline name: Enter or leaving the field keeps it, Escape drops the change. */
export function RenameInput({
  name,
  initial,
  onDone,
}: {
  name: string;
  initial: string;
  onDone: (text: string | undefined) => void;
}) {
  const [text, setText] = useState(initial);
  const finished = useRef(false);
  const finish = (value: string | undefined) => {
    if (finished.current) return;
    finished.current = true;
    onDone(value);
  };
  return (
    <input
      type="text"
      aria-label={`${name} name`}
      // Opened by the Rename button: typing starts here.
      // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the user, not on page load
      autoFocus
      value={text}
      placeholder="Name shown in the legend"
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          finish(text);
        }
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          finish(undefined);
        }
      }}
      onBlur={() => finish(text)}
      className="h-8 w-full max-w-sm rounded-md border border-gray-300 bg-white px-2.5 text-sm text-gray-900 dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100"
    />
  );
}

/** A new event: a name saved with the old one no longer applies. */
export function withEvent(entry: EntityInput, id: string | null): EntityInput {
  const { name: _stale, ...rest } = entry;
  return { ...rest, id };
}

/** A count math drops the property a property math needed. */
export function withMath(entry: EntityInput, math: MathType): EntityInput {
  const { math_property: property, math_hogql: expression, ...rest } = entry;
  // Each math keeps only what it reads: a property math its property, a HogQL math its expression.
  return {
    ...rest,
    math,
    ...(isPropertyMath(math) && property !== undefined ? { math_property: property } : {}),
    ...(math === 'hogql' && expression !== undefined ? { math_hogql: expression } : {}),
  };
}

/** Filters of an entry, inner groups' filters counted one by one. */
export function countFilters(entry: EntityInput): number {
  const props = entry.properties as { values?: unknown[] } | unknown[] | null | undefined;
  const values = Array.isArray(props) ? props : (props?.values ?? []);
  return values.reduce<number>(
    (n, v) =>
      n + (typeof v === 'object' && v !== null && 'values' in v && Array.isArray(v.values) ? v.values.length : 1),
    0,
  );
}

export const eventName = (id: EntityInput['id']): string | null =>
  id === null || id === undefined ? null : String(id);
