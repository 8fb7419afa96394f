import { Link } from '@tanstack/react-router';
import { memo, useCallback, type Dispatch, type SetStateAction } from 'react';
import type { BatchExport } from '@/contract/batch-exports';
import { formatDateTime, formatRelative } from '@/lib/dates';
import { Table, Td, Th } from '@/components/data-table/table';
import { DestinationName, intervalLabel, lastRun, modelLabel, PausedBadge, RunStatusBadge } from './labels';
import { PauseSwitch } from './pause-switch';

interface BatchExportsTableProps {
  organizationId: string;
  batchExports: BatchExport[];
  selected: ReadonlySet<string>;
  onSelectedChange: Dispatch<SetStateAction<ReadonlySet<string>>>;
  onPausedChange: (batchExport: BatchExport, paused: boolean) => void;
}

interface RowProps {
  organizationId: string;
  batchExport: BatchExport;
  selected: boolean;
  onSelect: (id: string, selected: boolean) => void;
  onPausedChange: (batchExport: BatchExport, paused: boolean) => void;
}

/** One row; memoised so that toggling one export re-renders only its row. */
const BatchExportRow = memo(function BatchExportRow({ organizationId, batchExport, selected, onSelect, onPausedChange }: RowProps) {
  const run = lastRun(batchExport.latest_runs);
  return (
    <tr data-batch-export-id={batchExport.id} className="hover:bg-gray-50 dark:hover:bg-gray-900">
      <Td className="w-10">
        <input
          type="checkbox"
          aria-label={`Select ${batchExport.name}`}
          checked={selected}
          onChange={(event) => onSelect(batchExport.id, event.target.checked)}
          className="size-4 accent-indigo-600"
        />
      </Td>
      <Td className="max-w-xs break-words">
        <Link
          to="/organizations/$organizationId/batch-exports/$batchExportId"
          params={{ organizationId, batchExportId: batchExport.id }}
          className="font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
        >
          {batchExport.name}
        </Link>
      </Td>
      <Td>
        <DestinationName type={batchExport.destination.type} />
      </Td>
      <Td>{modelLabel(batchExport.model)}</Td>
      <Td className="whitespace-nowrap">{intervalLabel(batchExport.interval)}</Td>
      <Td data-column="state">
        <PausedBadge paused={batchExport.paused} />
      </Td>
      <Td className="whitespace-nowrap">
        {run ? (
          <span className="inline-flex items-center gap-2">
            <RunStatusBadge status={run.status} />
            <time dateTime={run.created_at} title={formatDateTime(run.created_at)} className="text-gray-700 dark:text-gray-300">
              {formatRelative(run.created_at)}
            </time>
          </span>
        ) : (
          <span className="text-gray-600 dark:text-gray-400">No runs yet</span>
        )}
      </Td>
      <Td>
        <PauseSwitch batchExport={batchExport} onPausedChange={(paused) => onPausedChange(batchExport, paused)} />
      </Td>
    </tr>
  );
});

export function BatchExportsTable({ organizationId, batchExports, selected, onSelectedChange, onPausedChange }: BatchExportsTableProps) {
  const allSelected = batchExports.length > 0 && batchExports.every((item) => selected.has(item.id));
  const someSelected = !allSelected && batchExports.some((item) => selected.has(item.id));
  const onSelect = useCallback(
    (id: string, checked: boolean) =>
      onSelectedChange((previous) => {
        const next = new Set(previous);
        if (checked) next.add(id);
        else next.delete(id);
        return next;
      }),
    [onSelectedChange],
  );
  return (
    <Table caption="Batch exports">
      <thead>
        <tr>
          <Th className="w-10">
            <input
              type="checkbox"
              aria-label="Select all on this page"
              checked={allSelected}
              ref={(element) => {
                if (element) element.indeterminate = someSelected;
              }}
              onChange={(event) => onSelectedChange(new Set(event.target.checked ? batchExports.map((item) => item.id) : []))}
              className="size-4 accent-indigo-600"
            />
          </Th>
          <Th>Name</Th>
          <Th>Destination</Th>
          <Th>Model</Th>
          <Th>Interval</Th>
          <Th>State</Th>
          <Th>Last run</Th>
          <Th>Active</Th>
        </tr>
      </thead>
      <tbody>
        {batchExports.map((batchExport) => (
          <BatchExportRow
            key={batchExport.id}
            organizationId={organizationId}
            batchExport={batchExport}
            selected={selected.has(batchExport.id)}
            onSelect={onSelect}
            onPausedChange={onPausedChange}
          />
        ))}
      </tbody>
    </Table>
  );
}
