import { memo, useState, type CSSProperties } from 'react';
import { Button } from '@/components/ui/button';
import { Table, Td, Th } from '@/components/data-table/table';
import { cn } from '@/components/ui/cn';
import { cellText, type Cell, type Grid } from '../lib/result-grid';

const numeric = (cell: Cell) => cell === null || typeof cell === 'number' || typeof cell === 'object';

/**
 * A share (0..1) as a cell's tint (indigo-700 over the page). Light mode: dark text up to 60 %
 * tint, then white text on at least 85 % (the band between fails contrast either way, so it is
 * skipped); dark mode: light text on every tint.
 */
export function shadeStyle(share: number): {
  style: CSSProperties;
  className: string;
} {
  const s = Math.min(1, Math.max(0, share));
  const strong = s >= 0.5;
  const alpha = strong ? 0.85 + (s - 0.5) * 0.3 : 0.04 + s * 1.1;
  return {
    style: { backgroundColor: `rgba(67, 56, 202, ${alpha.toFixed(3)})` },
    className: strong ? 'text-white' : 'text-gray-900 dark:text-gray-100',
  };
}

/** Cells drawn before "Show all rows": a year of days × 30 series (11,000 cells) takes a second to lay out. */
const FIRST_CELLS = 1_500;
/** Rows drawn before "Show all rows", however narrow: a quarter of days fits, 300 path links make a page 12,000 px tall. */
const FIRST_ROWS = 100;

/** The sections cut to their first `rows` rows in all. */
function firstRows(grid: Grid, rows: number): Grid['sections'] {
  let left = rows;
  return grid.sections.flatMap((section) => {
    if (left <= 0) return [];
    const kept = section.rows.slice(0, left);
    left -= kept.length;
    return [{ ...section, rows: kept }];
  });
}

/**
 * The result's numbers as a table: the chart's text alternative, and what the shared page shows
 * too. A very large one shows its first rows and a button for the rest (the CSV has them all).
 */
export const ResultTable = memo(function ResultTable({ grid, title }: { grid: Grid; title: string }) {
  const [all, setAll] = useState(false);
  const columns = grid.columns.length;
  const total = grid.sections.reduce((sum, section) => sum + section.rows.length, 0);
  const limit = Math.min(FIRST_ROWS, Math.max(20, Math.floor(FIRST_CELLS / columns)));
  const cut = !all && total > limit;
  const sections = cut ? firstRows(grid, limit) : grid.sections;
  const firstRow = grid.sections.find((section) => section.rows.length > 0)?.rows[0];
  const right = grid.columns.map((_, index) => index > 0 && numeric(firstRow?.cells[index - 1] ?? null));
  return (
    <div className="space-y-2">
      <Table caption={`${title}: data`} keyboardScroll>
        <thead>
          <tr>
            {grid.columns.map((column, index) => (
              <Th key={index} className={cn(right[index] && 'text-right', 'whitespace-nowrap')}>
                {column}
              </Th>
            ))}
          </tr>
        </thead>
        {sections.map((section, s) => (
          <tbody key={s}>
            {section.title !== null ? (
              <tr>
                <Th scope="colgroup" colSpan={columns} className="bg-gray-100 dark:bg-gray-800">
                  {section.title}
                </Th>
              </tr>
            ) : null}
            {section.rows.map((row, index) => (
              <tr key={index}>
                <Th scope="row" className="bg-transparent font-normal whitespace-nowrap">
                  {row.head}
                </Th>
                {row.cells.map((cell, column) => {
                  const shade =
                    cell !== null && typeof cell === 'object' && cell.shade !== undefined
                      ? shadeStyle(cell.shade)
                      : null;
                  return (
                    <Td
                      key={column}
                      style={shade?.style}
                      className={cn(numeric(cell) && 'text-right whitespace-nowrap tabular-nums', shade?.className)}
                    >
                      {cellText(cell)}
                    </Td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        ))}
      </Table>
      {cut ? (
        <Button size="sm" onClick={() => setAll(true)}>
          Show all {total.toLocaleString()} rows
        </Button>
      ) : null}
    </div>
  );
});
