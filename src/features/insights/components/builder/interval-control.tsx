import { useId } from 'react';
import { INTERVALS, type Interval } from '@/contract/analytics-params';
import { intervalRefusal } from './date-range';
import { FieldMessage, selectClasses } from './field-parts';

const LABELS: Record<Interval, string> = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' };

interface IntervalControlProps {
  value: Interval;
  dateFrom?: string | null | undefined;
  dateTo?: string | null | undefined;
  onChange: (v: Interval) => void;
  error?: string | undefined;
}

/**
 * Interval of a time series: hour, day, week or month. An interval that would give more points
 * than a chart holds (ANALYTICS_LIMITS.buckets) over the date range is refused, and says why.
 */
export function IntervalControl({ value, dateFrom, dateTo, onChange, error }: IntervalControlProps) {
  const id = useId();
  const range = { date_from: dateFrom, date_to: dateTo };
  const refused = INTERVALS.map((interval) => ({ interval, reason: intervalRefusal(interval, range) }));
  const hint =
    refused.find((r) => r.reason && r.interval === value)?.reason ?? refused.find((r) => r.reason)?.reason ?? undefined;
  const message = error ?? (refused.some((r) => r.reason && r.interval === value) ? hint : undefined);
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">
        Interval
      </label>
      <select
        id={id}
        className={selectClasses(Boolean(message), 'w-full')}
        value={value}
        aria-invalid={message ? true : undefined}
        aria-describedby={message || hint ? `${id}-message` : undefined}
        onChange={(e) => onChange(e.target.value as Interval)}
      >
        {refused.map(({ interval, reason }) => (
          <option key={interval} value={interval} disabled={reason !== null && interval !== value}>
            {LABELS[interval]}
            {reason ? ' (too many points)' : ''}
          </option>
        ))}
      </select>
      <FieldMessage id={`${id}-message`} error={message} hint={hint} />
    </div>
  );
}
