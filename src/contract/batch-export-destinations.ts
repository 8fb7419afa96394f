import { z } from './z';
import { blankableText, bool, choice, choiceMessage, email, integer, list, MESSAGES, text, url } from './fields';

/**
 * Batch export destinations (docs/api.md): a discriminated union on `type`, each with its
 * own `config`. Three variants per type:
 * - create: every required field, secrets included; defaults applied (Postgres port 5432 ...);
 * - update: secrets may be omitted (the server keeps the stored value) and defaulted fields
 *   are optional without default (an omitted field keeps the stored value, never resets);
 * - response: secrets are absent (never echoed), extra fields kept.
 * BATCH_EXPORT_DESTINATIONS describes every field so a form can render it from the contract.
 */

export const DESTINATION_TYPES = ['S3', 'Snowflake', 'Postgres', 'Redshift', 'BigQuery', 'HTTP', 'NoOp'] as const;
export const destinationTypeSchema = choice(DESTINATION_TYPES);
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export const S3_COMPRESSIONS = ['gzip', 'brotli', 'zstd', 'lz4', 'snappy'] as const;
export const S3_ENCRYPTIONS = ['AES256', 'aws:kms'] as const;
export const S3_FILE_FORMATS = ['JSONLines', 'Parquet'] as const;
export const BIGQUERY_TOKEN_URI = 'https://oauth2.googleapis.com/token';

const port = () => integer({ min: 1, max: 65535 });

/** Event names a run exports (include) or leaves out (exclude); null or absent: no filter. */
export const EVENT_NAME_MAX = 400;
export const EVENT_FILTER_MAX = 1000;
const eventNames = () => z.optional(z.nullable(list(text(EVENT_NAME_MAX), EVENT_FILTER_MAX)));
const eventFilterShape = { include_events: eventNames(), exclude_events: eventNames() };

type Shape = z.core.$ZodShape;
type DefaultsShape = Record<string, z.ZodMiniDefault<z.ZodMiniType>>;
type Optional<S extends Shape> = { [K in keyof S]: z.ZodMiniOptional<S[K]> };
type Undefaulted<D extends DefaultsShape> = { [K in keyof D]: z.ZodMiniOptional<D[K]['def']['innerType']> };

/** Builds the create / update / response config schemas of one destination type. */
function configVariants<S extends Shape, D extends DefaultsShape, const K extends keyof S & string>(
  shape: S,
  defaults: D,
  secrets: readonly K[],
) {
  const isSecret = (k: string) => (secrets as readonly string[]).includes(k);
  const plain = Object.fromEntries(Object.entries(shape).filter(([k]) => !isSecret(k))) as Omit<S, K>;
  const secretShape = Object.fromEntries(
    Object.entries(shape)
      .filter(([k]) => isSecret(k))
      .map(([k, s]) => [k, z.optional(s as z.ZodMiniType)]),
  ) as unknown as Optional<Pick<S, K>>;
  const undefaulted = Object.fromEntries(
    Object.entries(defaults).map(([k, s]) => [k, z.optional(s.def.innerType)]),
  ) as unknown as Undefaulted<D>;
  const responseDefaults = Object.fromEntries(Object.entries(defaults).map(([k, s]) => [k, s.def.innerType])) as {
    [P in keyof D]: D[P]['def']['innerType'];
  };
  return {
    create: z.object({ ...shape, ...defaults }),
    update: z.object({ ...plain, ...secretShape, ...undefaulted }),
    response: z.looseObject({ ...plain, ...responseDefaults }),
    secrets,
  };
}

const postgresShape = {
  host: text(),
  database: text(),
  user: text(),
  password: text(),
  ...eventFilterShape,
};
const postgresDefaults = (defaultPort: number) => ({
  port: z._default(port(), defaultPort),
  schema: z._default(text(), 'public'),
  table_name: z._default(text(), 'events'),
  has_self_signed_cert: z._default(bool(), false),
});

export const destinationConfigs = {
  S3: configVariants(
    {
      bucket_name: text(),
      region: text(),
      aws_access_key_id: text(),
      aws_secret_access_key: text(),
      compression: z.optional(z.nullable(choice(S3_COMPRESSIONS))),
      encryption: z.optional(z.nullable(choice(S3_ENCRYPTIONS))),
      kms_key_id: z.optional(z.nullable(blankableText())),
      endpoint_url: z.optional(z.nullable(url())),
      /** Files are split when they reach this size. */
      max_file_size_mb: z.optional(z.nullable(integer({ min: 1 }))),
      ...eventFilterShape,
    },
    { prefix: z._default(blankableText(), ''), file_format: z._default(choice(S3_FILE_FORMATS), 'JSONLines') },
    ['aws_secret_access_key'],
  ),
  Snowflake: configVariants(
    {
      account: text(),
      user: text(),
      password: text(),
      database: text(),
      warehouse: text(),
      schema: text(),
      table_name: text(),
      role: z.optional(z.nullable(blankableText())),
      ...eventFilterShape,
    },
    {},
    ['password'],
  ),
  Postgres: configVariants(postgresShape, postgresDefaults(5432), ['password']),
  Redshift: configVariants(postgresShape, postgresDefaults(5439), ['password']),
  BigQuery: configVariants(
    {
      project_id: text(),
      dataset_id: text(),
      table_id: text(),
      private_key: text(),
      private_key_id: text(),
      client_email: email(),
      ...eventFilterShape,
    },
    { token_uri: z._default(url(), BIGQUERY_TOKEN_URI) },
    ['private_key', 'private_key_id'],
  ),
  HTTP: configVariants({ url: url(), token: text(), ...eventFilterShape }, {}, ['token']),
  NoOp: configVariants({}, {}, []),
} as const;

/** Write-only config fields per destination type: never in a response. */
export const DESTINATION_SECRET_FIELDS: { readonly [T in DestinationType]: readonly string[] } = Object.fromEntries(
  DESTINATION_TYPES.map((t) => [t, destinationConfigs[t].secrets]),
) as { [T in DestinationType]: readonly string[] };

type Configs = typeof destinationConfigs;
type Variant = 'create' | 'update' | 'response';

function option<T extends DestinationType, V extends Variant>(type: T, variant: V) {
  const configs = destinationConfigs as Configs;
  const config = configs[type][variant] as Configs[T][V];
  const make = variant === 'response' ? z.looseObject : z.object;
  return make({ type: z.literal(type), config }) as z.ZodMiniObject<{
    type: z.ZodMiniLiteral<T>;
    config: Configs[T][V];
  }>;
}

const discriminatorError = (iss: { input?: unknown }) => {
  const t = (iss.input as { type?: unknown } | undefined)?.type;
  return t === undefined ? MESSAGES.required : t === null ? MESSAGES.null : choiceMessage(t);
};

function destinationUnion<V extends Variant>(variant: V) {
  return z.discriminatedUnion(
    'type',
    [
      option('S3', variant),
      option('Snowflake', variant),
      option('Postgres', variant),
      option('Redshift', variant),
      option('BigQuery', variant),
      option('HTTP', variant),
      option('NoOp', variant),
    ],
    { error: discriminatorError },
  );
}

/** `destination` in a create request: secrets required. */
export const destinationCreateSchema = destinationUnion('create');
export type DestinationCreate = z.infer<typeof destinationCreateSchema>;
export type DestinationCreateInput = z.input<typeof destinationCreateSchema>;

/** `destination` in a PATCH: secrets may be omitted to keep the stored ones. */
export const destinationUpdateSchema = destinationUnion('update');
export type DestinationUpdate = z.infer<typeof destinationUpdateSchema>;

/**
 * `destination` in a response: a known type with its config (secrets absent), or, from a real
 * instance, a type this contract does not know with a free-form config.
 */
export const knownDestinationSchema = destinationUnion('response');
export const destinationSchema = z.union([
  knownDestinationSchema,
  z.looseObject({ type: z.string(), config: z.record(z.string(), z.unknown()) }),
]);
export type Destination = z.infer<typeof destinationSchema>;

/** The destination without its secret config fields: what a response may carry. */
export function redactDestination<D extends { type: string; config: Record<string, unknown> }>(destination: D): D {
  const secrets = DESTINATION_SECRET_FIELDS[destination.type as DestinationType] ?? [];
  const config = Object.fromEntries(Object.entries(destination.config).filter(([k]) => !secrets.includes(k)));
  return { ...destination, config };
}

/**
 * The config a PATCH stores: the stored config, overwritten by the fields given. When the type
 * changes nothing is kept (the new type's create schema must then pass).
 */
export function mergeDestinationConfig(
  stored: { type: string; config: Record<string, unknown> },
  patch: { type: string; config: Record<string, unknown> },
): Record<string, unknown> {
  const given = Object.fromEntries(Object.entries(patch.config).filter(([, v]) => v !== undefined));
  return stored.type === patch.type ? { ...stored.config, ...given } : given;
}

// ---------------------------------------------------------------------------------------------
// Field metadata for forms
// ---------------------------------------------------------------------------------------------

/** `list`: a list of text values, typed as one per line or separated by commas. */
export type DestinationFieldKind = 'text' | 'number' | 'boolean' | 'secret' | 'select' | 'list';

export interface DestinationField {
  name: string;
  label: string;
  kind: DestinationFieldKind;
  /** The create request fails without it (no default). Secrets are required on create only. */
  required: boolean;
  default?: string | number | boolean;
  /** For `select`: the allowed values; `nullable` selects also offer "none" (null). */
  options?: readonly string[];
  nullable?: boolean;
  help?: string;
}

export interface DestinationTypeInfo {
  type: DestinationType;
  label: string;
  fields: readonly DestinationField[];
}

const f = (
  name: string,
  label: string,
  kind: DestinationFieldKind,
  required: boolean,
  extra: Partial<DestinationField> = {},
): DestinationField => ({ name, label, kind, required, ...extra });

const eventFilterFields: readonly DestinationField[] = [
  f('include_events', 'Events to export', 'list', false, {
    help: 'Only these event names, one per line or comma-separated; blank exports every event',
  }),
  f('exclude_events', 'Events to leave out', 'list', false, {
    help: 'Event names never exported, one per line or comma-separated',
  }),
];

const postgresFields = (defaultPort: number): DestinationField[] => [
  f('host', 'Host', 'text', true),
  f('port', 'Port', 'number', false, { default: defaultPort }),
  f('database', 'Database', 'text', true),
  f('schema', 'Schema', 'text', false, { default: 'public' }),
  f('table_name', 'Table name', 'text', false, { default: 'events' }),
  f('user', 'User', 'text', true),
  f('password', 'Password', 'secret', true),
  f('has_self_signed_cert', 'Server uses a self-signed certificate', 'boolean', false, { default: false }),
  ...eventFilterFields,
];

export const BATCH_EXPORT_DESTINATIONS: readonly DestinationTypeInfo[] = [
  {
    type: 'S3',
    label: 'Amazon S3',
    fields: [
      f('bucket_name', 'Bucket name', 'text', true),
      f('region', 'Region', 'text', true, { help: 'e.g. us-east-1' }),
      f('prefix', 'Key prefix', 'text', false, { default: '' }),
      f('aws_access_key_id', 'AWS access key ID', 'text', true),
      f('aws_secret_access_key', 'AWS secret access key', 'secret', true),
      f('compression', 'Compression', 'select', false, { options: S3_COMPRESSIONS, nullable: true }),
      f('encryption', 'Encryption', 'select', false, { options: S3_ENCRYPTIONS, nullable: true }),
      f('kms_key_id', 'KMS key ID', 'text', false, { help: 'Only with aws:kms encryption' }),
      f('endpoint_url', 'Endpoint URL', 'text', false, { help: 'For S3-compatible storage' }),
      f('file_format', 'File format', 'select', false, { options: S3_FILE_FORMATS, default: 'JSONLines' }),
      f('max_file_size_mb', 'Maximum file size (MB)', 'number', false, {
        help: 'Larger exports are split into several files',
      }),
      ...eventFilterFields,
    ],
  },
  {
    type: 'Snowflake',
    label: 'Snowflake',
    fields: [
      f('account', 'Account', 'text', true),
      f('user', 'User', 'text', true),
      f('password', 'Password', 'secret', true),
      f('database', 'Database', 'text', true),
      f('warehouse', 'Warehouse', 'text', true),
      f('schema', 'Schema', 'text', true),
      f('table_name', 'Table name', 'text', true),
      f('role', 'Role', 'text', false),
      ...eventFilterFields,
    ],
  },
  { type: 'Postgres', label: 'PostgreSQL', fields: postgresFields(5432) },
  { type: 'Redshift', label: 'Amazon Redshift', fields: postgresFields(5439) },
  {
    type: 'BigQuery',
    label: 'Google BigQuery',
    fields: [
      f('project_id', 'Project ID', 'text', true),
      f('dataset_id', 'Dataset ID', 'text', true),
      f('table_id', 'Table ID', 'text', true),
      f('private_key', 'Private key', 'secret', true),
      f('private_key_id', 'Private key ID', 'secret', true),
      f('token_uri', 'Token URI', 'text', false, { default: BIGQUERY_TOKEN_URI }),
      f('client_email', 'Client email', 'text', true),
      ...eventFilterFields,
    ],
  },
  {
    type: 'HTTP',
    label: 'HTTP endpoint',
    fields: [f('url', 'URL', 'text', true), f('token', 'Token', 'secret', true), ...eventFilterFields],
  },
  { type: 'NoOp', label: 'No-op (testing)', fields: [] },
];

export function destinationTypeInfo(type: DestinationType): DestinationTypeInfo {
  const info = BATCH_EXPORT_DESTINATIONS.find((d) => d.type === type);
  if (!info) throw new Error(`Unknown destination type ${type}`);
  return info;
}

/** A create config with every default filled in: the initial values of a form. */
export function defaultDestinationConfig(type: DestinationType): Record<string, string | number | boolean | null> {
  return Object.fromEntries(
    destinationTypeInfo(type).fields.map((field) => [
      field.name,
      field.default ?? (field.kind === 'boolean' ? false : field.kind === 'select' || !field.required ? null : ''),
    ]),
  );
}
