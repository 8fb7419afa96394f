import { describe, expect, it } from 'vitest';
import type { TrendSeriesView, TrendsView } from '../../lib/view-types';
import { seriesGeometry } from './series-geometry';

const series = (key: string, data: number[], period: TrendSeriesView['period'] = null): TrendSeriesView => ({
  key,
  label: key,
  colour: 0,
  data,
  total: data.reduce((a, b) => a + b, 0),
  period,
  breakdownValue: null,
  days: [],
  labels: [],
});
const view = (display: TrendsView['display'], list: TrendSeriesView[]): TrendsView => ({
  type: 'trends',
  display,
  labels: ['Mon', 'Tue', 'Wed'],
  series: list,
  compare: list.some((s) => s.period !== null),
  unit: 'number',
  valueLabel: 'Events',
});

describe('seriesGeometry', () => {
  it('stacks areas: each series stands on those before it, and the value axis reaches the stack’s top', () => {
    const g = seriesGeometry(view('area', [series('a', [1, 2, 3]), series('b', [4, 4, 4])]), new Set(), 600, 300);
    expect(g.pointY('a', 2)).toBe(g.yAt(3));
    expect(g.pointY('b', 2)).toBe(g.yAt(7));
    expect(g.yTicks.at(-1)!.value).toBeGreaterThanOrEqual(7);
    // Each band is a closed shape from its top back along the one below it.
    expect(g.marks.every((m) => m.area && m.d.endsWith('Z'))).toBe(true);
    expect(g.marks[1]!.d).toContain(`L${g.xAt(0)},${Math.round(g.yAt(1) * 10) / 10}`);
  });

  it('a hidden series leaves the stack; a compared previous period is a stack of its own', () => {
    const list = [
      series('a', [1, 2, 3], 'current'),
      series('b', [4, 4, 4], 'current'),
      series('a-prev', [5, 5, 5], 'previous'),
    ];
    const hidden = seriesGeometry(view('area', list), new Set(['a']), 600, 300);
    expect(hidden.pointY('b', 0)).toBe(hidden.yAt(4));
    expect(hidden.pointY('a-prev', 0)).toBe(hidden.yAt(5));
  });

  it('lines are not stacked', () => {
    const g = seriesGeometry(view('line', [series('a', [1, 2, 3]), series('b', [4, 4, 4])]), new Set(), 600, 300);
    expect(g.pointY('b', 2)).toBe(g.yAt(4));
    expect(g.marks.some((m) => m.area || m.d.endsWith('Z'))).toBe(false);
  });
});
