import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { BuilderKind, BuilderParams } from './builder-search';
import { sameState, stateIssues } from './builder-state';

/**
 * Edits closer together than this are gathered into one write of the URL (and so one
 * recomputation): the first edit after a pause goes at once (a click recomputes without
 * waiting), the ones that follow it quickly (typing) wait until they pause.
 */
export const EDIT_DEBOUNCE_MS = 250;

export interface BuilderStateApi<S> {
  /** What the controls show: the latest edit, even before it reaches the URL. */
  state: S;
  setState: (next: S) => void;
  /** The contract's complaints about `state`, by attr (empty when it is valid). */
  issues: ReadonlyMap<string, string>;
  /** An edit waits for its debounce (the URL, and so the chart, still shows the one before). */
  pending: boolean;
}

/**
 * The builder's state between its controls and the URL: an edit shows at once in the controls,
 * and reaches the URL (a new history entry, which recomputes the chart) at once when it follows
 * a pause of EDIT_DEBOUNCE_MS, else once edits pause for that long. A state the contract refuses stays in the controls with its errors and is
 * not written. When the URL changes from outside (back, forward, a link), the controls follow.
 */
export function useBuilderState<K extends BuilderKind>(
  kind: K,
  urlState: BuilderParams[K],
  commit: (next: BuilderParams[K]) => void,
  delay = EDIT_DEBOUNCE_MS,
): BuilderStateApi<BuilderParams[K]> {
  const [local, setLocal] = useState(urlState);
  const [seenUrl, setSeenUrl] = useState(urlState);
  const [pending, setPending] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });

  // The URL moved (back/forward, a link, or our own write arriving): follow it, unless an edit
  // made since is still waiting to be written.
  if (!sameState(urlState, seenUrl)) {
    setSeenUrl(urlState);
    if (!pending) setLocal(urlState);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const lastWrite = useRef(0);
  const setState = useCallback(
    (next: BuilderParams[K]) => {
      setLocal(next);
      const waiting = timer.current !== undefined;
      clearTimeout(timer.current);
      timer.current = undefined;
      if (stateIssues(kind, next).size > 0) {
        setPending(false);
        return;
      }
      const write = () => {
        timer.current = undefined;
        lastWrite.current = performance.now();
        setPending(false);
        commitRef.current(next);
      };
      if (!waiting && performance.now() - lastWrite.current >= delay) {
        write();
        return;
      }
      setPending(true);
      timer.current = setTimeout(write, delay);
    },
    [kind, delay],
  );

  const issues = useMemo(() => stateIssues(kind, local), [kind, local]);
  return { state: local, setState, issues, pending };
}
