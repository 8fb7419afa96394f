import { Table, Td, Th } from '@/components/data-table/table';
import { cn } from '@/components/ui/cn';
import { formatNumber, formatPercent, type ResultView } from './result-model';

interface Grid {
  /** Column headers; the first heads the row headers. */
  columns: string[];
  /** Each row: its header, then its cells (numbers right-aligned). */
  rows: Array<{ head: string; cells: Array<string | number> }>;
}

function grid(view: ResultView): Grid | null {
  switch (view.type) {
    case 'trends':
      if (view.labels.length === 0) {
        return { columns: ['Series', 'Value'], rows: view.series.map((series) => ({ head: series.label, cells: [series.total] })) };
      }
      return {
        columns: ['Date', ...view.series.map((series) => series.label)],
        rows: view.labels.map((label, row) => ({ head: label, cells: view.series.map((series) => series.data[row] ?? 0) })),
      };
    case 'funnel':
      return {
        columns: ['Step', 'Persons', 'Conversion', 'From previous step'],
        rows: view.steps.map((step, index) => ({
          head: `${index + 1}. ${step.name}`,
          cells: [step.count, formatPercent(step.conversion), formatPercent(step.fromPrevious)],
        })),
      };
    case 'time-to-convert':
      return { columns: ['Time to convert (seconds)', 'Persons'], rows: view.bins.map((bin) => ({ head: formatNumber(bin.seconds), cells: [bin.count] })) };
    case 'retention':
      return {
        columns: ['Cohort', ...Array.from({ length: view.periods }, (_, period) => `Period ${period}`)],
        rows: view.cohorts.map((cohort) => {
          const first = cohort.counts[0] ?? 0;
          return {
            head: cohort.label,
            cells: Array.from({ length: view.periods }, (_, period) => {
              const count = cohort.counts[period];
              if (count === undefined) return '';
              return first > 0 ? `${formatNumber(count)} (${formatPercent(count / first)})` : formatNumber(count);
            }),
          };
        }),
      };
    case 'paths':
      return { columns: ['From', 'To', 'Persons'], rows: view.edges.map((edge) => ({ head: edge.source, cells: [edge.target, edge.value] })) };
    case 'empty':
      return null;
  }
}

const numeric = (cell: string | number) => typeof cell === 'number' || /^[\d.,\s%()]+$/.test(cell);

/** The result's numbers as a table: the chart's text alternative, and what the shared page shows too. */
export function ResultTable({ view, title }: { view: ResultView; title: string }) {
  const data = grid(view);
  if (!data) return null;
  return (
    <Table caption={`${title}: data`} keyboardScroll>
      <thead>
        <tr>
          {data.columns.map((column, index) => (
            <Th key={index} className={index > 0 && data.rows.some((row) => numeric(row.cells[index - 1] ?? '')) ? 'text-right' : undefined}>
              {column}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.rows.map((row, index) => (
          <tr key={index}>
            <Th scope="row" className="bg-transparent font-normal whitespace-nowrap">
              {row.head}
            </Th>
            {row.cells.map((cell, column) => (
              <Td key={column} className={cn(numeric(cell) && 'text-right tabular-nums')}>
                {typeof cell === 'number' ? formatNumber(cell) : cell}
              </Td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
