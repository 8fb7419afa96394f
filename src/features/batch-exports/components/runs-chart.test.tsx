import { describe, expect, it } from 'vitest';
import type { BatchExportRun } from '@/contract/batch-exports';
import { runBars } from './runs-chart';

const run = (id: string, start: string, created: string): BatchExportRun =>
  ({
    id,
    status: 'Completed',
    data_interval_start: start,
    data_interval_end: start,
    created_at: created,
    records_completed: 1,
  }) as BatchExportRun;

describe('runBars', () => {
  it('orders the bars by interval, not by when the runs were made: a backfill of older weeks comes first', () => {
    // As the API lists them: newest run first. The backfill (made last) covers older weeks.
    const runs = [
      run('b2', '2026-11-09T00:00:00Z', '2026-11-20T10:00:02Z'),
      run('b1', '2026-11-02T00:00:00Z', '2026-11-20T10:00:01Z'),
      run('b0', '2026-10-26T00:00:00Z', '2026-11-20T10:00:00Z'),
      run('s2', '2026-11-16T00:00:00Z', '2026-11-17T00:00:00Z'),
      run('s1', '2026-11-09T00:00:00Z', '2026-11-10T00:00:00Z'),
    ];
    // Two runs of one week stay in the order they ran.
    expect(runBars(runs).map((bar) => bar.id)).toEqual(['b0', 'b1', 's1', 'b2', 's2']);
  });
});
