import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Grid } from '../lib/result-grid';
import { ResultTable } from './result-table';

const grid = (rows: number, columns: number): Grid => ({
  columns: ['Row', ...Array.from({ length: columns - 1 }, (_, c) => `Column ${c + 1}`)],
  sections: [
    {
      title: null,
      rows: Array.from({ length: rows }, (_, r) => ({
        head: `Row ${r + 1}`,
        cells: Array.from({ length: columns - 1 }, () => r),
      })),
    },
  ],
});
const bodyRows = () => within(screen.getByRole('table', { name: 'Result: data' })).getAllByRole('row').length - 1;

describe('ResultTable', () => {
  it("draws a long narrow table's first 100 rows, and all of them on request", async () => {
    const user = userEvent.setup();
    render(<ResultTable grid={grid(300, 4)} title="Result" />);
    expect(bodyRows()).toBe(100);
    expect(screen.getByRole('rowheader', { name: 'Row 100' })).toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: 'Row 101' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show all 300 rows' }));
    expect(bodyRows()).toBe(300);
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });

  it('draws fewer rows of a wide table (about 1,500 cells), never fewer than 20', () => {
    render(<ResultTable grid={grid(366, 31)} title="Result" />);
    expect(bodyRows()).toBe(48);
  });

  it('draws a quarter of days whole, with no button', () => {
    render(<ResultTable grid={grid(91, 3)} title="Result" />);
    expect(bodyRows()).toBe(91);
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });
});
