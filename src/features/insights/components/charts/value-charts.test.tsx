import { describe, expect, it } from 'vitest';
import { CHART_HEIGHT } from './chart-frame';
import { PIE_LABEL_ROOM, pieRadii } from './value-charts';

const pieRadius = (width: number) => pieRadii(width).outerRadius;

describe('pieRadii', () => {
  it('leaves the percentage labels room beside and above the pie at every width from a phone up', () => {
    for (let width = 280; width <= 1600; width += 10) {
      const radius = pieRadius(width);
      expect(radius + PIE_LABEL_ROOM.side).toBeLessThanOrEqual(width / 2);
      expect(radius + PIE_LABEL_ROOM.top).toBeLessThanOrEqual(CHART_HEIGHT / 2);
    }
  });

  it('is as large as the height allows on a wide chart, and smaller on a phone', () => {
    expect(pieRadius(1000)).toBe(CHART_HEIGHT / 2 - PIE_LABEL_ROOM.top);
    expect(pieRadius(340)).toBe(340 / 2 - PIE_LABEL_ROOM.side);
  });
});
