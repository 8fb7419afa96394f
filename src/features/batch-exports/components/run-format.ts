import type { BatchExportRun } from '@/contract/batch-exports';

/** The viewer's time zone, named in the runs table (times are shown in it). */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const timeFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** `Mar 5, 14:00` in the viewer's time zone. */
export function formatIntervalTime(value: string | null): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : timeFormat.format(date);
}

/** `850 ms`, `12.4 s`, `3 min 5 s`, `2 h 10 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function runDuration(run: BatchExportRun): string {
  if (!run.finished_at) return run.status === 'Starting' || run.status === 'Running' ? 'In progress' : '—';
  return formatDuration(Date.parse(run.finished_at) - Date.parse(run.created_at));
}
