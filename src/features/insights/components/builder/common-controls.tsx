import type { PropertyGroupInput } from '@/contract/analytics-params';
import { DateRangeControl } from './date-range-control';
import { ControlSection } from './field-parts';
import type { ErrorFor } from './panel-types';
import { PropertyFilters } from './pickers/property-filters';
import { TestAccountsToggle } from './test-accounts-toggle';

/** What every kind's parameters share: a date range, global filters and the test-account switch. */
interface CommonState {
  date_from?: string | null | undefined;
  date_to?: string | null | undefined;
  properties?: unknown;
  filter_test_accounts?: unknown;
}

interface CommonControlsProps<S extends CommonState> {
  projectId: number;
  state: S;
  onChange: (next: S) => void;
  errorFor: ErrorFor;
  /** Limits the filters' property suggestions to these events. */
  eventNames?: readonly string[];
  /** Controls of the kind that sit with the date range (the interval). */
  children?: React.ReactNode;
  /** False: the kind has no date range (retention counts its periods back from date_to). */
  dateRange?: boolean;
}

/** The date range (with `children`, e.g. the interval) and the filters section of a builder. */
export function CommonControls<S extends CommonState>({
  projectId,
  state,
  onChange,
  errorFor,
  eventNames,
  children,
  dateRange = true,
}: CommonControlsProps<S>) {
  return (
    <>
      {dateRange ? (
        <ControlSection title="Dates">
          <DateRangeControl
            value={{ date_from: state.date_from ?? null, date_to: state.date_to ?? null }}
            errorFor={errorFor}
            onChange={(range) =>
              onChange({ ...state, date_from: range.date_from ?? undefined, date_to: range.date_to ?? undefined })
            }
          />
          {children}
        </ControlSection>
      ) : null}
      <ControlSection title="Filters">
        <PropertyFilters
          projectId={projectId}
          label="Filters"
          groups
          attrPrefix="properties"
          value={state.properties as PropertyGroupInput | undefined}
          eventNames={eventNames}
          errorFor={errorFor}
          onChange={(properties) => onChange({ ...state, properties })}
        />
        <TestAccountsToggle
          value={state.filter_test_accounts === true}
          onChange={(on) => onChange({ ...state, filter_test_accounts: on || undefined })}
        />
      </ControlSection>
    </>
  );
}

/** `{…, key: undefined}` without the key: the URL and the saved filters never hold empty keys. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
