import { CalendarDays } from 'lucide-react';
import { useId, useState } from 'react';
import { DayPicker, type DateRange as DayRange } from 'react-day-picker';
import { Button } from '@/components/ui/button';
import { Popover } from '@/components/ui/popover';
import { DATE_PRESETS, dayOf, isoDay, presetOf, rangeLabel, relativeOption, type DateRange } from './date-range';
import { FieldMessage, selectClasses } from './field-parts';
import type { ErrorFor } from './panel-types';

const CUSTOM = 'custom';

/** Tailwind for react-day-picker (no stylesheet of its own), light and dark. */
const calendarClasses = {
  root: 'text-sm',
  months: 'relative flex flex-wrap gap-4',
  month: 'space-y-2',
  month_caption: 'flex h-8 items-center justify-center font-medium',
  nav: 'absolute inset-x-0 top-0 flex h-8 items-center justify-between',
  button_previous:
    'inline-flex size-8 items-center justify-center rounded-md hover:bg-gray-100 dark:hover:bg-gray-800 [&_svg]:fill-current',
  button_next:
    'inline-flex size-8 items-center justify-center rounded-md hover:bg-gray-100 dark:hover:bg-gray-800 [&_svg]:fill-current',
  chevron: 'size-4',
  month_grid: 'border-collapse',
  weekdays: '',
  weekday: 'size-9 text-center text-xs font-normal text-gray-600 dark:text-gray-400',
  week: '',
  day: 'size-9 p-0 text-center',
  day_button:
    'size-9 rounded-md hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-gray-800',
  today: 'font-semibold text-indigo-700 dark:text-indigo-300',
  outside: 'text-gray-500 dark:text-gray-500',
  disabled: 'opacity-40',
  selected: '[&>button]:bg-indigo-600 [&>button]:text-white [&>button]:hover:bg-indigo-700',
  range_middle:
    '[&>button]:!rounded-none [&>button]:!bg-indigo-100 [&>button]:!text-indigo-900 dark:[&>button]:!bg-indigo-900 dark:[&>button]:!text-indigo-100',
  range_start: '[&>button]:rounded-r-none',
  range_end: '[&>button]:rounded-l-none',
  hidden: 'invisible',
};

interface DateRangeControlProps {
  value: DateRange;
  onChange: (v: { date_from?: string | null; date_to?: string | null }) => void;
  errorFor: ErrorFor;
}

/** Date range: a preset (last 7 days, this month, all time…) or a custom range picked on a calendar. */
export function DateRangeControl({ value, onChange, errorFor }: DateRangeControlProps) {
  const id = useId();
  const preset = presetOf(value) ?? relativeOption(value);
  const extra = relativeOption(value);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<DayRange | undefined>(undefined);
  const error = errorFor('date_from') ?? errorFor('date_to');
  const selected = draft ?? { from: dayOf(value.date_from), to: dayOf(value.date_to) };

  const choose = (next: string) => {
    if (next !== CUSTOM) {
      onChange({ date_from: next, date_to: null });
      return;
    }
    const to = new Date();
    const from = new Date(to.getFullYear(), to.getMonth(), to.getDate() - 29);
    onChange({ date_from: isoDay(from), date_to: isoDay(to) });
    setDraft({ from, to });
    setOpen(true);
  };

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) setDraft(undefined);
  };

  const onSelect = (range: DayRange | undefined) => {
    setDraft(range);
    // A click on a complete range starts a new one (resetOnSelect; `required`, so that a click on
    // a one-day range starts one too instead of clearing it): the second click completes it, on
    // another day or the same one (a range of one day).
    if (range?.from && range.to) {
      onChange({ date_from: isoDay(range.from), date_to: isoDay(range.to) });
    }
  };

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">
        Date range
      </label>
      <div className="flex flex-wrap gap-2">
        <select
          id={id}
          className={selectClasses(Boolean(error))}
          value={preset?.value ?? CUSTOM}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => choose(e.target.value)}
        >
          {DATE_PRESETS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
          {extra ? <option value={extra.value}>{extra.label}</option> : null}
          <option value={CUSTOM}>Custom range…</option>
        </select>
        {preset ? null : (
          <Popover
            label="Choose the dates"
            open={open}
            onOpenChange={onOpenChange}
            className="w-auto"
            trigger={
              <Button size="sm" className="h-9" aria-label={`Custom dates: ${rangeLabel(value)}`}>
                <CalendarDays aria-hidden="true" className="size-4" />
                {rangeLabel(value)}
              </Button>
            }
          >
            <DayPicker
              mode="range"
              required
              resetOnSelect
              selected={selected}
              onSelect={onSelect}
              defaultMonth={selected.to ?? selected.from}
              disabled={{ after: new Date() }}
              classNames={calendarClasses}
            />
            <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">Pick the first day, then the last.</p>
          </Popover>
        )}
      </div>
      <FieldMessage id={`${id}-error`} error={error} />
    </div>
  );
}
