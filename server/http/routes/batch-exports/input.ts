import {
  destinationCreateSchema,
  mergeDestinationConfig,
  type BatchExportCreate,
  type BatchExportUpdate,
} from '../../../../src/contract/index.ts';
import { nextRunAt, withPaused } from '../../../batch-exports/pause.ts';
import type { BatchExportFields, BatchExportRow } from '../../../store/batch-exports.ts';
import type { Store } from '../../../store/store.ts';
import { ApiError, validationError } from '../../errors.ts';
import { parseOrThrow } from '../../validation.ts';

/** Timestamps are stored as UTC ISO strings (so SQL compares them as text). */
const utc = (value: string | null | undefined) =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** A project of the organization (else 400 on team_id); absent: the first project (docs/api.md). */
function resolveTeam(store: Store, organizationId: string, teamId: number | undefined): number {
  if (teamId === undefined) {
    const first = store.batchExports.firstProjectId(organizationId);
    if (first === undefined)
      throw validationError('invalid_input', 'This organization has no project to export.', 'team_id');
    return first;
  }
  if (!store.batchExports.projectInOrganization(teamId, organizationId)) {
    throw validationError('does_not_exist', `Invalid pk "${teamId}" - object does not exist.`, 'team_id');
  }
  return teamId;
}

function checkRange(startAt: string | null, endAt: string | null): void {
  if (startAt !== null && endAt !== null && startAt >= endAt) {
    throw validationError('invalid_input', 'The end must be after the start.', 'end_at');
  }
}

/** The fields of a new export from a validated create body. */
export function createFields(
  store: Store,
  organizationId: string,
  body: BatchExportCreate,
  now: Date,
): BatchExportFields {
  const startAt = utc(body.start_at);
  const unpaused: BatchExportFields = {
    team_id: resolveTeam(store, organizationId, body.team_id),
    name: body.name,
    model: body.model,
    destination_type: body.destination.type,
    destination_config: JSON.stringify(body.destination.config),
    interval: body.interval,
    paused: 0,
    last_paused_at: null,
    start_at: startAt,
    end_at: utc(body.end_at),
    hogql_query: body.hogql_query ?? null,
    last_updated_at: now.toISOString(),
    next_run_at: nextRunAt(body.interval, startAt, now.getTime()),
  };
  const fields = withPaused(unpaused, body.paused ?? false, now);
  return body.last_paused_at === undefined ? fields : { ...fields, last_paused_at: utc(body.last_paused_at) };
}

/**
 * The destination a PATCH stores: the given config over the stored one (secrets omitted are
 * kept; a new type keeps nothing), checked whole against the type's create schema.
 */
export function mergedDestination(row: BatchExportRow, patch: NonNullable<BatchExportUpdate['destination']>) {
  const stored = { type: row.destination_type, config: JSON.parse(row.destination_config) as Record<string, unknown> };
  const config = mergeDestinationConfig(stored, patch);
  try {
    return parseOrThrow(destinationCreateSchema, { type: patch.type, config });
  } catch (error) {
    if (error instanceof ApiError && error.body.attr) {
      throw validationError(error.body.code, error.body.detail, `destination__${error.body.attr}`);
    }
    throw error;
  }
}

/** The export after a validated PATCH body; `row` is not changed. */
export function updatedRow(store: Store, row: BatchExportRow, body: BatchExportUpdate, now: Date): BatchExportRow {
  const at = now.toISOString();
  const next: BatchExportRow = { ...row, last_updated_at: at };
  if (body.name !== undefined) next.name = body.name;
  if (body.interval !== undefined) next.interval = body.interval;
  if (body.model !== undefined) next.model = body.model;
  if (body.hogql_query !== undefined) next.hogql_query = body.hogql_query;
  if (body.team_id !== undefined) next.team_id = resolveTeam(store, row.organization_id, body.team_id);
  if (body.start_at !== undefined) next.start_at = utc(body.start_at);
  if (body.end_at !== undefined) next.end_at = utc(body.end_at);
  checkRange(next.start_at, next.end_at);
  if (body.destination !== undefined) {
    const destination = mergedDestination(row, body.destination);
    next.destination_type = destination.type;
    next.destination_config = JSON.stringify(destination.config);
  }
  if (next.interval !== row.interval || next.start_at !== row.start_at || next.end_at !== row.end_at) {
    next.next_run_at = nextRunAt(next.interval, next.start_at, now.getTime());
  }
  const paused = body.paused === undefined ? next : withPaused(next, body.paused, now);
  if (body.last_paused_at !== undefined) paused.last_paused_at = utc(body.last_paused_at);
  return paused;
}
