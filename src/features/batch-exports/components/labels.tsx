import { CircleOff, Cloud, Database, Snowflake, Table2, Warehouse, Webhook, type LucideIcon } from 'lucide-react';
import {
  BATCH_EXPORT_DESTINATIONS,
  BATCH_EXPORT_MODEL_LABELS,
  type BatchExport,
  type BatchExportInterval,
  type BatchExportRun,
  type BatchExportRunStatus,
} from '@/contract/batch-exports';
import { Badge, type BadgeTone } from '@/components/ui/badge';

const DESTINATION_ICONS: Record<string, LucideIcon> = {
  S3: Cloud,
  Snowflake,
  Postgres: Database,
  Redshift: Warehouse,
  BigQuery: Table2,
  HTTP: Webhook,
  NoOp: CircleOff,
};

export function destinationLabel(type: string): string {
  return BATCH_EXPORT_DESTINATIONS.find((info) => info.type === type)?.label ?? type;
}

/** The destination's icon and name ("Amazon S3"). */
export function DestinationName({ type }: { type: string }) {
  const Icon = DESTINATION_ICONS[type] ?? Database;
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <Icon aria-hidden="true" className="size-4 shrink-0 text-gray-600 dark:text-gray-400" />
      {destinationLabel(type)}
    </span>
  );
}

const INTERVAL_LABELS: Record<BatchExportInterval, string> = {
  hour: 'Hourly',
  day: 'Daily',
  week: 'Weekly',
  'every 5 minutes': 'Every 5 minutes',
};

export function intervalLabel(interval: BatchExportInterval): string {
  return INTERVAL_LABELS[interval];
}

export function modelLabel(model: BatchExport['model']): string {
  return model ? BATCH_EXPORT_MODEL_LABELS[model] : BATCH_EXPORT_MODEL_LABELS.events;
}

const STATUS: Record<BatchExportRunStatus, { label: string; tone: BadgeTone }> = {
  Starting: { label: 'Starting', tone: 'info' },
  Running: { label: 'Running', tone: 'info' },
  Completed: { label: 'Completed', tone: 'success' },
  Failed: { label: 'Failed', tone: 'danger' },
  FailedRetryable: { label: 'Failed (will retry)', tone: 'warning' },
  Cancelled: { label: 'Cancelled', tone: 'neutral' },
  Terminated: { label: 'Terminated', tone: 'danger' },
  TimedOut: { label: 'Timed out', tone: 'danger' },
  ContinuedAsNew: { label: 'Continued', tone: 'info' },
};

/** Colour per outcome, shared by the badges and the chart (light and dark). */
export const STATUS_COLOURS: Record<BadgeTone, string> = {
  success: '#16a34a',
  danger: '#dc2626',
  warning: '#d97706',
  info: '#2563eb',
  neutral: '#6b7280',
};

export function statusTone(status: BatchExportRunStatus): BadgeTone {
  return STATUS[status].tone;
}

export function statusLabel(status: BatchExportRunStatus): string {
  return STATUS[status].label;
}

export function RunStatusBadge({ status }: { status: BatchExportRunStatus }) {
  return <Badge tone={STATUS[status].tone}>{STATUS[status].label}</Badge>;
}

export function PausedBadge({ paused }: { paused: boolean }) {
  return <Badge tone={paused ? 'warning' : 'success'}>{paused ? 'Paused' : 'Active'}</Badge>;
}

/** The most recent run (by creation time) of an export's `latest_runs`. */
export function lastRun(runs: readonly BatchExportRun[]): BatchExportRun | undefined {
  let latest: BatchExportRun | undefined;
  for (const run of runs) if (!latest || run.created_at > latest.created_at) latest = run;
  return latest;
}
