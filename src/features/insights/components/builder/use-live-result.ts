import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { isApiError, type ApiError } from '@/lib/api-client';
import { analysisQuery } from '../../api/analysis.queries';
import type { BuilderKind, BuilderParams } from './builder-search';
import { sameState } from './builder-state';
import type { ErrorFor } from './panel-types';

export interface LiveResult {
  /** The latest result computed (kept while a newer one loads or after a refused change). */
  result: unknown;
  /** The parameters `result` was computed for. */
  resultParams: unknown;
  /** The chart shows older parameters than the controls: it is dimmed and busy. */
  stale: boolean;
  /** Nothing computed yet. */
  loading: boolean;
  /** A newer result is on its way (a request, or a change about to be sent); when stale and not updating, the controls' state is held back. */
  updating: boolean;
  /** A 400 naming a field: shown beside that control. */
  fieldError: ApiError | null;
  /** Any other failure (5xx, network, 400 without a field): shown in words with a retry. */
  error: Error | null;
  /** The field's error: the contract's check of the controls first, then the server's 400. */
  errorFor: ErrorFor;
  retry: () => void;
}

/**
 * The analysis result of the builder's URL state: one request per committed state (the
 * previous result stays visible meanwhile; a superseded request is aborted through the query's
 * signal). `issues` are the contract's complaints about the controls' state, by attr.
 */
export function useLiveResult<K extends BuilderKind>(
  projectId: number,
  kind: K,
  urlState: BuilderParams[K],
  issues: ReadonlyMap<string, string>,
  pending: boolean,
): LiveResult {
  const query = useQuery(analysisQuery(projectId, kind, urlState));
  const [last, setLast] = useState<{ data: unknown; params: unknown } | null>(null);
  const data = query.isPlaceholderData ? undefined : (query.data as { result?: unknown } | undefined);
  if (data && last?.data !== data) setLast({ data, params: urlState });
  const shown = data ? { data, params: urlState } : last;

  const failure = query.error;
  const fieldError = isApiError(failure) && failure.status === 400 && failure.attr ? failure : null;
  const error = failure && !fieldError ? failure : null;
  const errorFor = useCallback<ErrorFor>(
    (attr) => issues.get(attr) ?? (fieldError?.attr === attr ? fieldError.detail : undefined),
    [issues, fieldError],
  );
  const { refetch } = query;
  const retry = useCallback(() => void refetch(), [refetch]);

  const result = (shown?.data as { result?: unknown } | undefined)?.result;
  const resultParams = shown?.params;
  const stale =
    Boolean(shown) &&
    (query.isFetching || pending || issues.size > 0 || failure !== null || !sameState(resultParams, urlState));
  const loading = !shown && query.isFetching;
  const updating = query.isFetching || pending;
  // The same object while nothing in it changed: the chart, drawn from it, skips such renders.
  return useMemo(
    () => ({ result, resultParams, stale, loading, updating, fieldError, error, errorFor, retry }),
    [result, resultParams, stale, loading, updating, fieldError, error, errorFor, retry],
  );
}
