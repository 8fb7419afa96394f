import {
  BATCH_EXPORT_DESTINATIONS,
  DESTINATION_SECRET_FIELDS,
  type BatchExport,
  type DestinationType,
} from '@/contract/batch-exports';
import { formatDateTime } from '@/lib/dates';
import { Detail, DetailsList } from '@/components/ui/details-list';
import { DestinationName, intervalLabel, modelLabel } from './labels';

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : '—';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function Masked() {
  return (
    <span>
      <span aria-hidden="true" className="font-mono">
        ••••••••
      </span>
      <span className="ml-2 text-gray-600 dark:text-gray-400">(hidden)</span>
    </span>
  );
}

/** The export's configuration; secrets are never shown (the server does not send them either). */
export function BatchExportConfig({ batchExport }: { batchExport: BatchExport }) {
  const { destination } = batchExport;
  const info = BATCH_EXPORT_DESTINATIONS.find((candidate) => candidate.type === destination.type);
  const config = destination.config as Record<string, unknown>;
  const secrets = DESTINATION_SECRET_FIELDS[destination.type as DestinationType] ?? [];
  const fields = info
    ? info.fields.map((field) => ({ name: field.name, label: field.label, secret: field.kind === 'secret' }))
    : Object.keys(config).map((name) => ({ name, label: name, secret: secrets.includes(name) }));
  return (
    <DetailsList>
      <Detail label="Destination">
        <DestinationName type={destination.type} />
      </Detail>
      {fields.map((field) => (
        <Detail key={field.name} label={field.label}>
          {field.secret ? <Masked /> : <span className="break-all">{show(config[field.name])}</span>}
        </Detail>
      ))}
      <Detail label="Model">{modelLabel(batchExport.model)}</Detail>
      <Detail label="Interval">{intervalLabel(batchExport.interval)}</Detail>
      <Detail label="Start">{batchExport.start_at ? formatDateTime(batchExport.start_at) : 'Immediately'}</Detail>
      <Detail label="End">{batchExport.end_at ? formatDateTime(batchExport.end_at) : 'No end'}</Detail>
      <Detail label="HogQL query">
        {batchExport.hogql_query ? (
          <pre className="overflow-x-auto rounded bg-gray-50 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-gray-900">
            {batchExport.hogql_query}
          </pre>
        ) : (
          'Default (all fields)'
        )}
      </Detail>
      <Detail label="Created">{formatDateTime(batchExport.created_at)}</Detail>
      <Detail label="Last paused">{formatDateTime(batchExport.last_paused_at)}</Detail>
    </DetailsList>
  );
}
