import type { ReferenceEvent } from '../../../server/analytics/types.ts';
import { propertyNumberOf } from '../../../server/analytics/query/properties.ts';
import { binsOf } from './trends.ts';

/** One part of a funnel's or retention's breakdown: its text of an event, in `bins` equal-width bins when given. */
export interface RefBreakdownPart {
  read: (e: ReferenceEvent) => string | null;
  bins?: number | undefined;
}

const NONE = '$$_posthog_breakdown_null_$$';
/** Several parts' values joined (the engines' funnel and retention groups), a missing one None. */
export const PARTS_SEPARATOR = '\u001f';

/**
 * The value of an event under `parts`: a binned part's bins span the numbers of its texts among
 * `candidates` (the events whose values the analysis counts); several parts join their values
 * (a missing or empty one None), one part is its value (null when missing).
 */
export function partsReader(
  parts: readonly RefBreakdownPart[],
  several: boolean,
  candidates: readonly ReferenceEvent[],
): (e: ReferenceEvent) => string | null {
  const numberIn = (t: string | null) => (t === null || t === '' ? null : propertyNumberOf({ v: t }, 'v'));
  const binned = parts.map((p) =>
    p.bins
      ? binsOf(
          candidates.map((e) => numberIn(p.read(e))).filter((n): n is number => n !== null),
          p.bins,
        )
      : null,
  );
  const valueOf = (e: ReferenceEvent, i: number): string | null => {
    const t = parts[i]!.read(e);
    const bins = binned[i];
    if (!bins) return t === '' ? null : t;
    const n = numberIn(t);
    return n === null ? null : (bins.find((x) => n >= x.lo && n < x.hi)?.name ?? null);
  };
  return (e) => (several ? parts.map((_, i) => valueOf(e, i) ?? NONE).join(PARTS_SEPARATOR) : valueOf(e, 0));
}
