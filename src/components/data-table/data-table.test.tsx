import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable, pinnedColumn, type Column } from './data-table';

interface Row {
  id: string;
  name: string;
}
const columns: Column<Row>[] = [
  { header: 'Favorite', hideHeader: true, cell: () => '☆' },
  { header: 'Name', cell: (row) => row.name },
  { header: 'Actions', hideHeader: true, cell: (row) => <button type="button">Delete {row.name}</button> },
];

describe('DataTable', () => {
  it("keeps a hidden header's cell in the header row, named for screen readers only", () => {
    render(
      <DataTable caption="Things" rows={[{ id: '1', name: 'One' }]} columns={columns} getRowId={(row) => row.id} />,
    );
    const headers = within(screen.getByRole('table', { name: 'Things' })).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['Favorite', 'Name', 'Actions']);
    expect(headers[0]!.querySelector('.sr-only')).toHaveTextContent('Favorite');
    expect(headers[0]).not.toHaveClass('sr-only');
    expect(headers[1]!.querySelector('.sr-only')).toBeNull();
  });

  it('pins the first column whose header is shown, unless one is pinned', () => {
    expect(pinnedColumn(columns)).toBe(1);
    expect(pinnedColumn([...columns, { header: 'Id', pinned: true, cell: () => '' }])).toBe(3);
  });
});
