import type { InsightCreate, InsightUpdate } from '../../src/contract/index.ts';
import type { ActivityChange } from '../store/activity-log.ts';
import type { InsightFields, InsightRow } from '../store/insights.ts';
import { derivedName } from './derived-name.ts';
import { analysisOf, paramsToFilters, paramsToQuery, type Analysis } from './query.ts';

/**
 * A validated create or PATCH body → the stored fields of an insight (both forms of its
 * analysis, its derived name, what a change touches). A bad filters/query shape throws
 * InsightInputError naming the field (the route's input.ts turns it into the API's 400).
 */

type Json = Record<string, unknown>;

/** The analysis a body being saved describes (query first, else filters), with the checks of a write. */
const readAnalysis = (filters: Json | undefined, query: Json | null | undefined): Analysis | null =>
  analysisOf({ filters, query }, { write: true });

/** The stored pair of forms: both written from one analysis (an InsightVizNode wrapper is kept). */
function storedForms(analysis: Analysis | null, filters: Json | undefined, query: Json | null | undefined) {
  if (!analysis) return { filters: JSON.stringify(filters ?? {}), query: null };
  const node = paramsToQuery(analysis);
  const wrapped = query?.kind === 'InsightVizNode' ? { ...query, source: node } : node;
  return { filters: JSON.stringify(paramsToFilters(analysis)), query: JSON.stringify(wrapped) };
}

/**
 * Analysis of a stored insight (its query; null when it has none). Stored forms have the
 * schema's shape; a formula saved before saves checked it may not read (the engine says so).
 */
export function storedAnalysis(row: Pick<InsightRow, 'query'>): Analysis | null {
  return row.query === null ? null : analysisOf({ query: JSON.parse(row.query) as Json });
}

/** A new insight's fields from a validated create body. */
export function createFields(body: InsightCreate, at: string, userId: number): InsightFields {
  const analysis = readAnalysis(body.filters, body.query);
  return {
    name: body.name ?? null,
    derived_name: body.derived_name !== undefined ? body.derived_name : analysis && derivedName(analysis),
    description: body.description ?? null,
    ...storedForms(analysis, body.filters, body.query),
    tags: JSON.stringify(body.tags ?? []),
    dashboards: JSON.stringify(body.dashboards ?? []),
    favorited: Number(body.favorited ?? false),
    saved: Number(body.saved ?? false),
    deleted: Number(body.deleted ?? false),
    order: body.order ?? null,
    updated_at: at,
    last_modified_at: at,
    last_modified_by: userId,
    last_refresh: null,
  };
}

/** Fields whose change is logged, with how their stored text reads back. */
const LOGGED: readonly (keyof InsightFields)[] = [
  'name',
  'derived_name',
  'description',
  'filters',
  'query',
  'tags',
  'dashboards',
  'favorited',
  'saved',
  'order',
];
const JSON_FIELDS = new Set<keyof InsightFields>(['filters', 'query', 'tags', 'dashboards']);
const BOOLEAN_FIELDS = new Set<keyof InsightFields>(['favorited', 'saved']);
/** A change to any of these is a modification (last_modified_at/by); others only touch updated_at. */
const MODIFYING = new Set<keyof InsightFields>(['name', 'description', 'filters', 'query']);

const readable = (field: keyof InsightFields, value: unknown): unknown => {
  if (value === null || value === undefined) return null;
  if (JSON_FIELDS.has(field)) return JSON.parse(String(value));
  if (BOOLEAN_FIELDS.has(field)) return value === 1;
  return value;
};

export interface InsightUpdateResult {
  fields: InsightFields;
  /** The logged fields that changed, before and after. */
  changes: ActivityChange[];
  /** Whether `deleted` changed (soft delete or restore). */
  deletedChanged: boolean;
}

/** A PATCH merged into the stored insight: only the given fields change. */
export function updatedFields(row: InsightRow, body: InsightUpdate, at: string, userId: number): InsightUpdateResult {
  const next: InsightFields = {
    name: row.name,
    derived_name: row.derived_name,
    description: row.description,
    filters: row.filters,
    query: row.query,
    tags: row.tags,
    dashboards: row.dashboards,
    favorited: row.favorited,
    saved: row.saved,
    deleted: row.deleted,
    order: row.order,
    updated_at: row.updated_at,
    last_modified_at: row.last_modified_at,
    last_modified_by: row.last_modified_by,
    last_refresh: row.last_refresh,
  };
  if (body.filters !== undefined || body.query !== undefined) {
    const analysis = readAnalysis(body.filters, body.query);
    Object.assign(next, storedForms(analysis, body.filters, body.query));
    if (body.derived_name === undefined) next.derived_name = analysis && derivedName(analysis);
  }
  if (body.name !== undefined) next.name = body.name;
  if (body.derived_name !== undefined) next.derived_name = body.derived_name;
  if (body.description !== undefined) next.description = body.description;
  if (body.tags !== undefined) next.tags = JSON.stringify(body.tags);
  if (body.dashboards !== undefined) next.dashboards = JSON.stringify(body.dashboards);
  if (body.favorited !== undefined) next.favorited = Number(body.favorited);
  if (body.saved !== undefined) next.saved = Number(body.saved);
  if (body.deleted !== undefined) next.deleted = Number(body.deleted);
  if (body.order !== undefined) next.order = body.order;

  const changes: ActivityChange[] = LOGGED.filter((f) => next[f] !== row[f]).map((field) => ({
    type: 'Insight',
    action: 'changed',
    field,
    before: readable(field, row[field]),
    after: readable(field, next[field]),
  }));
  const deletedChanged = next.deleted !== row.deleted;
  if (changes.length > 0 || deletedChanged) next.updated_at = at;
  if (changes.some((c) => MODIFYING.has(c.field as keyof InsightFields))) {
    next.last_modified_at = at;
    next.last_modified_by = userId;
  }
  return { fields: next, changes, deletedChanged };
}
