import { Suspense, useMemo, useRef, useState } from 'react';
import { Download } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { Insight } from '@/contract/insights';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { EmptyState } from '@/components/feedback/empty-state';
import { downloadCsv, downloadPng } from '../lib/download';
import { gridCsv, resultGrid } from '../lib/result-grid';
import { insightChart, worldMap } from './chart-preload';
import type { FunnelPersonsTarget } from './charts/funnel-steps';
import { viewOf, viewOptions } from './result-model';
import { PERSONS, type ActorWords } from '../lib/actor-words';
import { ResultTable } from './result-table';

const InsightChart = insightChart.Component;
const WorldMap = worldMap.Component;

export interface InsightResultProps {
  /** `filters` is the legacy form: {insight: 'TRENDS'|'FUNNELS'|'RETENTION'|'PATHS', display, compare, funnel_viz_type, breakdown, …}; `query` may be null. */
  insight: Pick<Insight, 'filters' | 'query' | 'result'>;
  title: string;
  /**
   * Builder: this result is not the controls' any more: 'loading' (a new one is on its way: kept
   * visible, dimmed, aria-busy) or 'held' (nothing is on its way: the controls' state cannot be
   * sent, or its request failed; dimmed, and said so, the reason said where it happened).
   */
  stale?: 'loading' | 'held' | false;
  /** Builder: show "Download CSV" (the table's numbers, made in the browser) and "Download PNG" (the chart). */
  downloads?: boolean;
  /** Funnel steps: a click on a step's converted or dropped count (1-based step; the breakdown value when grouped). */
  onFunnelPersons?: (target: FunnelPersonsTarget) => void;
  /** The numbers as a table under the chart (default); a glance (the project overview) has the chart alone. */
  table?: boolean;
  /** What unique counts and funnel steps count (default persons): a group type's groups when aggregated by one. */
  actors?: ActorWords;
}

/** A paths insight's start and end points in words (`start at “/x”`), or null when it has neither. */
function pathPoints(filters: Record<string, unknown>): string | null {
  const point = (key: string) =>
    typeof filters[key] === 'string' && filters[key] !== '' ? (filters[key] as string) : null;
  const [start, end] = [point('start_point'), point('end_point')];
  const words = [start ? `start at “${start}”` : null, end ? `end at “${end}”` : null].filter(Boolean);
  return words.length > 0 ? words.join(' and ') : null;
}

/**
 * An insight's result: its chart (lazy; the world map a chunk of its own) with its numbers as a
 * table under it. The saved insight page, the shared page and the builders all show it.
 */
export function InsightResult({
  insight,
  title,
  stale = false,
  downloads = false,
  onFunnelPersons,
  table = true,
  actors = PERSONS,
}: InsightResultProps) {
  const busy = stale === 'loading' || undefined;
  // Memoised on plain values: the builders pass `insight` as a new object on every render.
  const { kind, display, compare } = viewOptions(insight);
  const result = insight.result;
  const view = useMemo(
    () => viewOf(result, { kind, display, compare, actors }),
    [result, kind, display, compare, actors],
  );
  const grid = useMemo(() => resultGrid(view, actors), [view, actors]);
  const figure = useRef<HTMLElement>(null);
  const [saving, setSaving] = useState(false);

  if (view.type === 'empty' || !grid) {
    const points = kind === 'PATHS' ? pathPoints(insight.filters) : null;
    return (
      <div aria-busy={busy}>
        <EmptyState title="No results">
          {points
            ? `No paths ${points} in this date range. A start or end point is matched whole, as the table lists the steps: a page by its full address (such as https://example.com/pricing), a screen or another event by its name.`
            : "There is nothing to show for this insight's date range yet."}
        </EmptyState>
      </div>
    );
  }
  const map = view.type === 'trends' && view.display === 'map';
  const charted = !(view.type === 'trends' && view.display === 'table');
  const savePng = async () => {
    if (!figure.current) return;
    setSaving(true);
    try {
      await downloadPng(figure.current, title);
    } catch {
      toast.error('The chart could not be saved as an image.');
    } finally {
      setSaving(false);
    }
  };
  return (
    // Stale: a veil dims the chart (and keeps clicks off counts that are about to change); the
    // table keeps its contrast, and a status says the numbers are being updated.
    <div aria-busy={busy} className="space-y-4">
      {downloads || stale ? (
        <div className="flex flex-wrap items-center justify-end gap-2">
          <span role="status" className="mr-auto text-sm text-gray-700 dark:text-gray-300">
            {stale === 'loading' ? 'Updating…' : stale === 'held' ? 'Not updated' : ''}
          </span>
          {downloads ? (
            <Button size="sm" onClick={() => downloadCsv(gridCsv(grid), title)}>
              <Download aria-hidden="true" className="size-4" />
              Download CSV
            </Button>
          ) : null}
          {downloads && charted ? (
            <Button size="sm" onClick={() => void savePng()} disabled={saving}>
              <Download aria-hidden="true" className="size-4" />
              Download PNG
            </Button>
          ) : null}
        </div>
      ) : null}
      {charted ? (
        <figure
          ref={figure}
          aria-label={`${title}: chart`}
          data-insight-chart
          className="relative min-h-[120px] rounded-lg border border-gray-200 bg-white p-4 text-gray-900 dark:border-gray-800 dark:bg-gray-950 dark:text-gray-100"
        >
          {stale ? (
            <div
              aria-hidden="true"
              data-stale-veil
              className="absolute inset-0 z-10 rounded-lg bg-white/50 dark:bg-gray-950/50"
            />
          ) : null}
          <Suspense fallback={<Skeleton className="h-[320px] w-full" />}>
            {map ? <WorldMap view={view} /> : <InsightChart view={view} onFunnelPersons={onFunnelPersons} />}
          </Suspense>
        </figure>
      ) : null}
      {table ? <ResultTable grid={grid} title={title} /> : null}
    </div>
  );
}
