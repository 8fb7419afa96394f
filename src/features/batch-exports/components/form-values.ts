import { set, type FieldErrors, type Resolver } from 'react-hook-form';
import {
  batchExportCreateSchema,
  batchExportUpdateSchema,
  DESTINATION_TYPES,
  defaultDestinationConfig,
  destinationTypeInfo,
  type BatchExport,
  type BatchExportCreate,
  type BatchExportInterval,
  type BatchExportModel,
  type BatchExportUpdate,
  type DestinationType,
} from '@/contract/batch-exports';
import { fromInputValue, isoToInputValue } from './date-inputs';

export type ConfigValue = string | boolean;

/** What the inputs hold: text as typed, dates as `datetime-local` values, config per field. */
export interface BatchExportFormValues {
  name: string;
  model: BatchExportModel;
  interval: BatchExportInterval;
  start_at: string;
  end_at: string;
  hogql_query: string;
  destination: { type: DestinationType; config: Record<string, ConfigValue> };
}

export function isKnownDestinationType(type: string): type is DestinationType {
  return (DESTINATION_TYPES as readonly string[]).includes(type);
}

/** A type's config as input values: defaults filled in, secrets blank. */
export function initialConfig(
  type: DestinationType,
  stored: Record<string, unknown> = {},
): Record<string, ConfigValue> {
  const defaults = defaultDestinationConfig(type);
  return Object.fromEntries(
    destinationTypeInfo(type).fields.map((field) => {
      if (field.kind === 'secret') return [field.name, ''];
      const value = field.name in stored ? stored[field.name] : defaults[field.name];
      if (field.kind === 'boolean') return [field.name, value === true];
      if (field.kind === 'list') return [field.name, Array.isArray(value) ? value.join('\n') : ''];
      return [field.name, value === null || value === undefined ? '' : String(value)];
    }),
  );
}

export function createDefaults(type: DestinationType = 'S3'): BatchExportFormValues {
  return {
    name: '',
    model: 'events',
    interval: 'hour',
    start_at: '',
    end_at: '',
    hogql_query: '',
    destination: { type, config: initialConfig(type) },
  };
}

export function editDefaults(batchExport: BatchExport): BatchExportFormValues {
  const type = batchExport.destination.type as DestinationType;
  return {
    name: batchExport.name,
    model: batchExport.model ?? 'events',
    interval: batchExport.interval,
    start_at: isoToInputValue(batchExport.start_at),
    end_at: isoToInputValue(batchExport.end_at),
    hogql_query: batchExport.hogql_query ?? '',
    destination: { type, config: initialConfig(type, batchExport.destination.config as Record<string, unknown>) },
  };
}

/** A list typed one item per line or separated by commas, blanks dropped. */
export function listItems(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * The request body from the inputs. Blank optional fields become null (or are left out when
 * the server has a default); on edit a blank secret is left out so the stored one is kept
 * (unless the type changed: a new type needs its secrets).
 */
export function toRequestBody(values: BatchExportFormValues, storedType: string | null): Record<string, unknown> {
  const { type } = values.destination;
  const keepSecrets = storedType === type;
  const config: Record<string, unknown> = {};
  for (const field of destinationTypeInfo(type).fields) {
    const raw = values.destination.config[field.name];
    const text = typeof raw === 'string' ? raw.trim() : '';
    switch (field.kind) {
      case 'boolean':
        config[field.name] = raw === true;
        break;
      case 'number':
        if (text !== '') config[field.name] = Number.isNaN(Number(text)) ? text : Number(text);
        break;
      case 'secret':
        if (!(text === '' && keepSecrets)) config[field.name] = typeof raw === 'string' ? raw : '';
        break;
      case 'select':
        if (text !== '') config[field.name] = text;
        else if (field.nullable) config[field.name] = null;
        break;
      case 'list': {
        // Blank: no filter. An edit sends null to clear a stored list; a new export leaves it out.
        const items = listItems(text);
        if (items.length > 0) config[field.name] = items;
        else if (keepSecrets) config[field.name] = null;
        break;
      }
      default:
        if (text !== '') config[field.name] = text;
        else if (field.required || field.default === '') config[field.name] = '';
        else if (field.default === undefined) config[field.name] = null;
    }
  }
  const instant = (value: string) => fromInputValue(value, false)?.toISOString() ?? null;
  return {
    name: values.name.trim(),
    model: values.model,
    interval: values.interval,
    start_at: instant(values.start_at),
    end_at: instant(values.end_at),
    hogql_query: values.hogql_query.trim() === '' ? null : values.hogql_query,
    destination: { type, config },
  };
}

/** The form fields a server 400's `attr` can point at, for the selected type. */
export function formFieldPaths(type: DestinationType): string[] {
  return [
    'name',
    'model',
    'interval',
    'start_at',
    'end_at',
    'hogql_query',
    'destination.type',
    ...destinationTypeInfo(type).fields.map((field) => `destination.config.${field.name}`),
  ];
}

type Output = BatchExportCreate | BatchExportUpdate;

/** Validates with the contract's request schema (create or update), errors on the fields they name. */
export function batchExportResolver(storedType: string | null): Resolver<BatchExportFormValues, unknown, Output> {
  const schema = storedType === null ? batchExportCreateSchema : batchExportUpdateSchema;
  return async (values) => {
    const parsed = schema.safeParse(toRequestBody(values, storedType));
    if (parsed.success) return { values: parsed.data, errors: {} };
    const errors: FieldErrors<BatchExportFormValues> = {};
    const known = formFieldPaths(values.destination.type);
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      // An item of a list (`include_events.2`) is shown on the list's own field.
      const field = known.find((f) => path === f || path.startsWith(`${f}.`));
      if (!field) continue;
      set(errors, field, { type: issue.code, message: issue.message });
    }
    if (Object.keys(errors).length === 0) {
      set(errors, 'root.server', { type: 'validation', message: parsed.error.issues[0]?.message ?? 'Check the form.' });
    }
    return { values: {}, errors };
  };
}
