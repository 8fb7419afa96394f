import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import type { EntityInput } from '@/contract/analytics-params';
import type { BreakdownValue } from './pickers';

/**
 * What every builder panel (trends, funnels, retention, paths) is given: the project, the
 * builder's state (the contract's input type of the kind's parameters, exactly what the URL
 * holds), a way to change it, and the error (client check or the server's 400) of a field,
 * named as the API names it (`events__0__math_property`, `formula`, `interval`, `date_from`).
 */
export type ErrorFor = (attr: string) => string | undefined;

export interface PanelProps<S> {
  projectId: number;
  state: S;
  onChange: (next: S) => void;
  errorFor: ErrorFor;
}

/**
 * A stable `patch → onChange({ ...state, ...patch })` on the latest state, for the memoised
 * controls (the series list, the breakdown): an edit of one field re-renders the panel, not
 * the pickers of the fields it left alone.
 */
export function usePatch<S>(state: S, onChange: (next: S) => void): (patch: Partial<S>) => void {
  const latest = useRef({ state, onChange });
  useLayoutEffect(() => {
    latest.current = { state, onChange };
  });
  return useCallback((patch: Partial<S>) => latest.current.onChange({ ...latest.current.state, ...patch }), []);
}

/** What the series list and the breakdown control of a panel take, stable between edits of other fields. */
export function usePickerBindings<S extends { events?: unknown } & BreakdownValue>(
  state: S,
  onChange: (next: S) => void,
) {
  const patchState = usePatch(state, onChange);
  const setEvents = useCallback((events: EntityInput[]) => patchState({ events } as Partial<S>), [patchState]);
  const breakdown = useMemo<BreakdownValue>(
    () => ({
      breakdown: state.breakdown,
      breakdown_type: state.breakdown_type,
      breakdown_limit: state.breakdown_limit,
      breakdown_group_type_index: state.breakdown_group_type_index,
      breakdowns: state.breakdowns,
      breakdown_histogram_bin_count: state.breakdown_histogram_bin_count,
    }),
    [
      state.breakdown,
      state.breakdown_type,
      state.breakdown_limit,
      state.breakdown_group_type_index,
      state.breakdowns,
      state.breakdown_histogram_bin_count,
    ],
  );
  return { patchState, setEvents, breakdown };
}
