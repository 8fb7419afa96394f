import { useId, useState } from 'react';
import {
  ANALYTICS_LIMITS,
  FUNNEL_WINDOW_UNITS,
  funnelWindow,
  type FunnelParamsInput,
  type FunnelWindowUnit,
} from '@/contract/analytics-params';
import { cn } from '@/components/ui/cn';

type WindowFields = Pick<
  FunnelParamsInput,
  'funnel_window_interval' | 'funnel_window_interval_type' | 'funnel_window_interval_unit' | 'funnel_window_days'
>;

const UNIT_WORDS: Record<FunnelWindowUnit, string> = {
  second: 'seconds',
  minute: 'minutes',
  hour: 'hours',
  day: 'days',
  week: 'weeks',
  month: 'months',
};

/** The window as the controls show it: whatever names the state uses (unit or type, legacy days). */
export function windowOf(state: WindowFields): { interval: number; unit: FunnelWindowUnit } {
  const unitText = state.funnel_window_interval_unit ?? state.funnel_window_interval_type ?? null;
  const unit = unitText ? (unitText.toLowerCase().replace(/s$/, '') as FunnelWindowUnit) : null;
  const known = unit && (FUNNEL_WINDOW_UNITS as readonly string[]).includes(unit) ? unit : null;
  return funnelWindow({
    funnel_window_interval: state.funnel_window_interval ?? null,
    funnel_window_interval_type: known,
    funnel_window_interval_unit: null,
    funnel_window_days: state.funnel_window_days ?? null,
  });
}

/** The state with this window, under the production service's names only. */
export function withWindow<S extends WindowFields>(state: S, interval: number, unit: FunnelWindowUnit): S {
  const next: S = { ...state, funnel_window_interval: interval, funnel_window_interval_unit: unit };
  delete next.funnel_window_interval_type;
  delete next.funnel_window_days;
  return next;
}

interface Props<S extends WindowFields> {
  state: S;
  onChange: (next: S) => void;
  /** The contract's (or the server's) complaint about the window. */
  error?: string | undefined;
}

/** Conversion window: how long a person has from the first step to the last (a number and a unit). */
export function FunnelWindowControl<S extends WindowFields>({ state, onChange, error }: Props<S>) {
  const id = useId();
  const { interval, unit } = windowOf(state);
  // What is typed, kept while it is not a whole number yet (an empty box, "1.5").
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? String(interval);
  const draftError = draft !== null ? 'Enter a whole number, 1 or more.' : undefined;
  const message = draftError ?? error;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const control = 'rounded-md border bg-white px-3 py-2 text-sm dark:bg-gray-900';
  const border = message ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600';

  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium">Conversion window</legend>
      <div className="flex gap-2">
        <input
          id={`${id}-interval`}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          aria-label="Conversion window length"
          aria-invalid={message ? true : undefined}
          aria-describedby={[descriptionId, message ? errorId : null].filter(Boolean).join(' ')}
          value={shown}
          onChange={(e) => {
            const text = e.target.value;
            if (/^\d+$/.test(text) && Number(text) >= 1) {
              setDraft(null);
              onChange(withWindow(state, Number(text), unit));
            } else {
              setDraft(text);
            }
          }}
          onBlur={() => setDraft(null)}
          className={cn(control, border, 'w-24')}
        />
        <select
          aria-label="Conversion window unit"
          value={unit}
          onChange={(e) => onChange(withWindow(state, interval, e.target.value as FunnelWindowUnit))}
          className={cn(control, 'border-gray-300 dark:border-gray-600')}
        >
          {FUNNEL_WINDOW_UNITS.map((u) => (
            <option key={u} value={u}>
              {UNIT_WORDS[u]}
            </option>
          ))}
        </select>
      </div>
      <p id={descriptionId} className="text-sm text-gray-600 dark:text-gray-400">
        Time from the first step to the last, at most {ANALYTICS_LIMITS.funnelWindowDays} days.
      </p>
      {message ? (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-300">
          {message}
        </p>
      ) : null}
    </fieldset>
  );
}
