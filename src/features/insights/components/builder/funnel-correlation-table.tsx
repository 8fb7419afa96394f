import type { FunnelCorrelationEntry } from '@/contract/insights';
import { Button } from '@/components/ui/button';

/** "2.3× more likely to convert" / "4× less likely to convert", from an odds ratio. */
export function oddsInWords(oddsRatio: number): string {
  const raising = oddsRatio >= 1;
  const factor = raising ? oddsRatio : 1 / oddsRatio;
  const shown = factor >= 100 ? Math.round(factor).toLocaleString('en-US') : Number(factor.toFixed(1)).toString();
  return `${shown}× ${raising ? 'more' : 'less'} likely to convert`;
}

/** What an entry is about: the event's name, or `property = value` for a person property. */
export function correlationLabel(entry: FunnelCorrelationEntry, type: 'events' | 'properties'): string {
  if (type === 'events') return entry.event.event;
  const [key, value] = Object.entries(entry.event.properties)[0] ?? [entry.event.event, ''];
  return `${key} = ${value === null || value === undefined ? '(none)' : String(value as string | number | boolean)}`;
}

interface CorrelationTableProps {
  entries: readonly FunnelCorrelationEntry[];
  type: 'events' | 'properties';
  caption: string;
  /** Events only: leave this event out of the analysis. */
  onExclude?: ((eventName: string) => void) | undefined;
  dim?: boolean;
}

/** The correlated events (or property values): who did them, how many converted, and the effect in words. */
export function CorrelationTable({ entries, type, caption, onExclude, dim }: CorrelationTableProps) {
  const subject = type === 'events' ? 'Event' : 'Person property';
  return (
    <div className="overflow-x-auto">
      <table className={`w-full min-w-[32rem] text-left text-sm ${dim ? 'opacity-60' : ''}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-gray-200 text-xs text-gray-600 uppercase dark:border-gray-800 dark:text-gray-400">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              {subject}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Effect
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Converted
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Dropped off
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Odds ratio
            </th>
            {onExclude ? (
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
          {entries.map((entry) => {
            const label = correlationLabel(entry, type);
            const raising = entry.correlation_type === 'success';
            return (
              <tr key={entry.event.event}>
                <th scope="row" className="py-2 pr-3 font-medium [overflow-wrap:anywhere]">
                  {label}
                </th>
                <td
                  className={`py-2 pr-3 ${raising ? 'text-green-800 dark:text-green-300' : 'text-red-800 dark:text-red-300'}`}
                >
                  <span aria-hidden="true">{raising ? '▲ ' : '▼ '}</span>
                  {oddsInWords(entry.odds_ratio)}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{entry.success_count.toLocaleString('en-US')}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{entry.failure_count.toLocaleString('en-US')}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{entry.odds_ratio.toFixed(2)}</td>
                {onExclude ? (
                  <td className="py-2 text-right">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => onExclude(entry.event.event)}
                      aria-label={`Exclude ${label} from the analysis`}
                    >
                      Exclude
                    </Button>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
