import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { TooltipContentProps, TooltipPayloadEntry } from 'recharts';
import { formatValue, type ValueUnit } from '../../lib/format';

/** Readable on white and on gray-900 (each at least 3:1 against both, as graphics must be). */
const PALETTE = [
  '#6366f1',
  '#0891b2',
  '#d97706',
  '#e11d48',
  '#16a34a',
  '#9333ea',
  '#db2777',
  '#0d9488',
  '#ea580c',
  '#2563eb',
  '#65a30d',
  '#c026d3',
];
export const colour = (index: number) => PALETTE[index % PALETTE.length]!;

export const CHART_HEIGHT = 320;
/** The width when the element has none to measure (a test's DOM). */
const FALLBACK_WIDTH = 720;

/** Axes, grid and labels take the text colour (currentColor), so they follow light and dark mode. */
export const axisProps = {
  tick: { fill: 'currentColor', fontSize: 12 },
  stroke: 'currentColor',
  strokeOpacity: 0.4,
} as const;
export const gridProps = {
  strokeDasharray: '3 3',
  stroke: 'currentColor',
  strokeOpacity: 0.15,
  vertical: false,
} as const;
export const margin = { top: 16, right: 24, bottom: 8, left: 8 } as const;

/**
 * The width of the element `ref` points at, measured before paint and again when it resizes:
 * the charts get a fixed size (no ResponsiveContainer, whose first render is empty).
 */
export function useWidth(): [RefObject<HTMLDivElement | null>, number | null] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.round(element.getBoundingClientRect().width) || FALLBACK_WIDTH);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** A box of the chart's width: its child is drawn once the width is known. */
export function Sized({
  height = CHART_HEIGHT,
  children,
}: {
  height?: number;
  children: (width: number) => ReactNode;
}) {
  const [ref, width] = useWidth();
  return (
    <div ref={ref} style={{ height }} className="w-full">
      {width === null ? null : children(width)}
    </div>
  );
}

/** An axis's title: what its numbers are, above a value axis (`y`) or under the right end of `x`. */
export function AxisTitle({ axis, children }: { axis: 'x' | 'y'; children: ReactNode }) {
  return (
    <p
      data-axis-title={axis}
      className={`text-xs font-medium text-gray-700 dark:text-gray-300 ${axis === 'x' ? 'text-right' : ''}`}
    >
      {children}
    </p>
  );
}

/** The tooltip box: every series at the hovered point, its value formatted by the unit. */
interface ChartTooltipProps {
  active?: boolean;
  payload?: readonly TooltipPayloadEntry[];
  label?: string | number;
  unit: ValueUnit;
}

/** The `content` of a recharts Tooltip: ChartTooltip with values in `unit`. */
export const tooltipContent = (unit: ValueUnit) =>
  function Content(props: TooltipContentProps) {
    return <ChartTooltip active={props.active} payload={props.payload} label={props.label} unit={unit} />;
  };

export function ChartTooltip({ active, payload, label, unit }: ChartTooltipProps) {
  if (!active || !payload || payload.length === 0) return null;
  const heading = String(label ?? '');
  return (
    <div className="max-w-xs rounded-md border border-gray-200 bg-white px-3 py-2 text-xs text-gray-900 shadow-md dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100">
      {heading ? <p className="mb-1 font-medium">{heading}</p> : null}
      <ul className="space-y-0.5">
        {payload.slice(0, 40).map((entry, index) => (
          <li key={index} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className="inline-block size-2 shrink-0 rounded-full"
              style={{ background: String(entry.color ?? entry.payload?.fill ?? 'currentColor') }}
            />
            <span className="min-w-0 flex-1 truncate">{String(entry.name ?? '')}</span>
            <span className="tabular-nums">
              {typeof entry.value === 'number'
                ? formatValue(entry.value, unit)
                : entry.value === null || entry.value === undefined
                  ? '–'
                  : String(entry.value)}
            </span>
          </li>
        ))}
        {payload.length > 40 ? (
          <li className="text-gray-600 dark:text-gray-400">and {payload.length - 40} more</li>
        ) : null}
      </ul>
    </div>
  );
}
