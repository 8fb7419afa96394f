import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MetricsPanel } from './metrics-panel';

const start = Date.UTC(2026, 10, 23, 10);
const hours = Array.from({ length: 24 }, (_, i) => ({
  hour: new Date(start + i * 3_600_000).toISOString(),
  delivered: i === 23 ? 37 : i,
  failed: i === 5 ? 4 : 0,
}));

describe('delivery metrics', () => {
  it('draws the last 24 hours with a count axis up to the busiest hour and a time axis', () => {
    render(<MetricsPanel metrics={{ delivered: 1000, failed: 9, retried: 2, hours }} />);
    const chart = screen.getByRole('img', { name: /last 24 hours: 290 delivered, 4 failed/ });
    const labels = [...chart.querySelectorAll('text')].map((t) => t.textContent);
    // count axis: 0 and a round top at or above the busiest hour (37)
    expect(labels).toContain('0');
    expect(labels).toContain('40');
    // time axis: four labels, six hours apart, in the reader's time, the hour alone
    const time = (offset: number) =>
      new Date(start + offset * 3_600_000).toLocaleTimeString(undefined, { hour: 'numeric' });
    for (const offset of [0, 6, 12, 18]) expect(labels).toContain(time(offset));
    expect(screen.getByTestId('metric-failed')).toHaveTextContent('9');
    expect(screen.getByTestId('metric-delivered')).toHaveTextContent(new Intl.NumberFormat().format(1000));
  });

  it('says so when nothing was delivered', () => {
    render(<MetricsPanel metrics={null} />);
    expect(screen.getByText('No deliveries yet.')).toBeInTheDocument();
  });
});
