import { cn } from '@/components/ui/cn';
import { formatChange, formatValue } from '../../lib/format';
import type { TrendsView } from '../../lib/view-types';

/** The big number of each series (the first large), and with compare its change against the previous period. */
export function BoldNumber({ view }: { view: TrendsView }) {
  const previous = new Map(view.series.filter((s) => s.period === 'previous').map((s) => [s.colour, s.total]));
  const current = view.series.filter((s) => s.period !== 'previous').slice(0, 6);
  return (
    <div className="flex flex-wrap items-end justify-center gap-x-12 gap-y-6 py-8">
      {current.map((series, index) => {
        const before = previous.get(series.colour);
        const change = view.compare && before !== undefined ? formatChange(series.total, before) : null;
        const up = before !== undefined && series.total >= before;
        return (
          <div key={series.key} className="text-center">
            <p className={cn('font-semibold tabular-nums', index === 0 ? 'text-6xl' : 'text-3xl')} data-bold-number>
              {formatValue(series.total, view.unit)}
            </p>
            {current.length > 1 || series.breakdownValue !== null ? (
              <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">{series.label}</p>
            ) : null}
            {view.compare && before !== undefined ? (
              <p
                className={cn(
                  'mt-2 text-sm font-medium',
                  up ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400',
                )}
              >
                {change ?? `${series.total > before ? '+' : ''}${formatValue(series.total - before, view.unit)}`} vs
                previous period
                <span className="font-normal text-gray-700 dark:text-gray-300">
                  {' '}
                  ({formatValue(before, view.unit)})
                </span>
              </p>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
