import { useCallback, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { colour } from './chart-frame';

export interface LegendItem {
  key: string;
  label: string;
  colour: number;
  dashed?: boolean;
}

/** Which series are hidden (by key), and a toggle. */
export function useHiddenSeries(): [ReadonlySet<string>, (key: string) => void] {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (key: string) =>
      setHidden((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );
  return [hidden, toggle];
}

/** The chart's legend: each series a toggle button (pressed = drawn). */
export function SeriesLegend({
  items,
  hidden,
  onToggle,
}: {
  items: LegendItem[];
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
}) {
  if (items.length < 2) return null;
  return (
    <ul aria-label="Series" className="mt-3 flex max-h-40 flex-wrap gap-1 overflow-y-auto text-xs">
      {items.map((item) => {
        const shown = !hidden.has(item.key);
        return (
          <li key={item.key}>
            <button
              type="button"
              aria-pressed={shown}
              onClick={() => onToggle(item.key)}
              className={cn(
                'inline-flex max-w-64 items-center gap-1.5 rounded px-2 py-1 hover:bg-gray-100 dark:hover:bg-gray-800',
                'focus-visible:outline-2 focus-visible:outline-indigo-600',
                !shown && 'text-gray-600 line-through dark:text-gray-400',
              )}
            >
              <svg aria-hidden="true" width="16" height="8" className="shrink-0">
                <line
                  x1="0"
                  y1="4"
                  x2="16"
                  y2="4"
                  strokeWidth="3"
                  stroke={shown ? colour(item.colour) : 'currentColor'}
                  strokeDasharray={item.dashed ? '4 3' : undefined}
                />
              </svg>
              <span className="truncate" title={item.label}>
                {item.label}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
