import fc from 'fast-check';

/**
 * Requests for every route of the server, generated from its own OpenAPI document (which is
 * generated from the contract): values that fit each parameter's JSON schema, mixed with hostile
 * ones (nesting 10,000 deep, numbers past 2^63, lone surrogates, 1 MB strings, 100,000-item
 * arrays, SQL and path fragments). Used by test/fuzz/fuzz.test.ts (a short run in `npm test`)
 * and bench/fuzz.mjs (1,000+ requests per route against a server process).
 */

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
};

/** A JSON value to be spliced into the body as raw text (what JSON.stringify cannot make, or would overflow on). */
export class RawJson {
  constructor(readonly text: string) {}
}

const deep = (depth: number) => {
  let v = '"x"';
  for (let i = 0; i < depth; i += 1) v = i % 2 ? `[${v}]` : `{"a":${v}}`;
  return v;
};

/** Values no client should send, each a classic way to reach a 500 or a dead process. */
export const HOSTILE: readonly unknown[] = [
  new RawJson(deep(10_000)),
  new RawJson(deep(65)),
  new RawJson('"\\ud800"'),
  new RawJson('"a\\udfffb"'),
  1e20,
  -1e20,
  2 ** 63,
  -(2 ** 63) - 4096,
  1e308,
  -1e308,
  5e-324,
  2 ** 53 + 2,
  1e15,
  3_000_000_000,
  -1,
  '1e20',
  '-1e309',
  'NaN',
  'Infinity',
  '',
  ' ',
  '\u0000',
  '💥',
  '../../..',
  '%2e%2e/',
  "'; DROP TABLE events; --",
  '$1',
  '\\',
  'x'.repeat(5000),
  'x'.repeat(1024 * 1024),
  Array.from({ length: 100_000 }, () => 0),
  null,
  true,
  {},
  [],
  [[[[]]]],
  { __proto__: null, constructor: 'x' },
  '2020-13-45',
  '-999999999d',
  'all',
];

const hostile = fc.constantFrom(...HOSTILE);

/**
 * Fields whose JSON schema says only "string" but whose valid values are a language of their
 * own (dates, property keys, event names): fitting values for them, so generated requests get
 * past validation into the engines too.
 */
const eventNames = fc.constantFrom('$pageview', 'signup', 'purchase', 'user signed up', null);
const filterArb = fc.record({
  key: fc.constantFrom('$browser', 'amount', '$current_url', 'email', 'a b.c'),
  value: fc.constantFrom('Chrome', 5, '10', ['Chrome', 'Safari'], '1e20', 1e20, 'a.*b', '\ud800'),
  operator: fc.constantFrom(
    'exact',
    'is_not',
    'icontains',
    'not_icontains',
    'regex',
    'not_regex',
    'gt',
    'lt',
    'is_set',
    'is_not_set',
  ),
  type: fc.constantFrom('event', 'person'),
});
const groupArb = fc.record({
  type: fc.constantFrom('AND', 'OR'),
  values: fc.array(
    fc.oneof(
      filterArb,
      fc.record({ type: fc.constantFrom('AND', 'OR'), values: fc.array(filterArb, { maxLength: 3 }) }),
    ),
    { maxLength: 3 },
  ),
});
const entityArb = fc.record(
  {
    id: eventNames,
    math: fc.constantFrom('total', 'dau', 'weekly_active', 'monthly_active', 'unique_session', 'sum', 'p90'),
    math_property: fc.constant('amount'),
    properties: fc.oneof(groupArb, fc.array(filterArb, { maxLength: 2 })),
  },
  { requiredKeys: ['id', 'math', 'math_property'] },
);

const HINTS: Record<string, fc.Arbitrary<unknown>> = {
  events: fc.array(entityArb, { minLength: 1, maxLength: 4 }),
  properties: groupArb,
  target_entity: entityArb,
  returning_entity: entityArb,
  date_from: fc.constantFrom('-7d', '-30d', '-90d', 'all', '-1dStart', 'mStart', '-24h', '2020-01-01', '2024-6-1'),
  date_to: fc.constantFrom(null, '-1d', 'dStart', '2030-01-01'),
  key: fc.constantFrom('$browser', 'amount', '$current_url', 'email', 'a b.c'),
  breakdown: fc.constantFrom('$browser', '$current_url', 'amount', null),
  math_property: fc.constantFrom('amount', '$browser'),
  id: fc.constantFrom('$pageview', 'signup', 'purchase', 'user signed up', null),
  formula: fc.constantFrom('A', 'A+B', 'A/B*100', '(A-B)%3', null),
  start_point: fc.constantFrom('/p/1', '$pageview', null),
  end_point: fc.constantFrom('/p/2', null),
  value: fc.constantFrom('Chrome', 5, '10', ['Chrome', 'Safari'], '1e20', 'a.*b'),
  actions: fc.constant([]),
  regex: fc.constantFrom('/p/(\\d+)', '\\?.*$', '[0-9a-f]{8}'),
  event: fc.constantFrom('$pageview', 'signup', '$identify', '$create_alias', '$screen'),
  distinct_id: fc.constantFrom('u1', 'u2', 'anon-1'),
  offset: fc.nat({ max: 10_000_000 }),
  start_at: fc.constantFrom('2024-01-01T00:00:00Z', null),
  end_at: fc.constantFrom('2024-01-02T00:00:00Z', null),
  last_paused_at: fc.constant(null),
  url: fc.constantFrom('https://example.com/in', 'http://127.0.0.1:9/x'),
  endpoint_url: fc.constant(null),
  client_email: fc.constant('svc@example.com'),
  name: fc.constantFrom('Export', 'Ünïcode ✓', 'x'),
};

/** An arbitrary for `schema`; with probability 1/`rate` any node is a hostile value instead. */
export function valueFor(schema: JsonSchema | undefined, rate: number, depth = 0): fc.Arbitrary<unknown> {
  const fitting = fitted(schema ?? {}, rate, depth);
  return fc.oneof({ arbitrary: fitting, weight: rate - 1 }, { arbitrary: hostile, weight: 1 });
}

function fitted(s: JsonSchema, rate: number, depth: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  // Mostly fitting requests favour an enum's first value (the contract lists the common one first).
  if (s.enum)
    return rate >= 50
      ? fc.oneof({ arbitrary: fc.constant(s.enum[0]), weight: 3 }, { arbitrary: fc.constantFrom(...s.enum), weight: 1 })
      : fc.constantFrom(...s.enum);
  const options = s.anyOf ?? s.oneOf;
  if (options?.length) return fc.oneof(...options.map((o) => valueFor(o, rate, depth + 1)));
  if (s.allOf?.length) return valueFor(s.allOf[0], rate, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      if (s.format === 'date-time')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (s.format === 'uuid') return fc.uuid();
      if (s.format === 'email') return fc.emailAddress();
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -1000, -1e6), max: Math.min(s.maximum ?? 1000, 1e6) });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      if (depth > 6) return fc.constant([]);
      return fc.array(valueFor(s.items, rate, depth + 1), {
        minLength: Math.min(s.minItems ?? 0, 3),
        maxLength: Math.min(s.maxItems ?? 4, 4),
      });
    case 'object': {
      if (depth > 6 || !s.properties)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      // Mostly fitting requests (rate ≥ 50) always take the hinted values, and always send them.
      const fitting = rate >= 50;
      const required = new Set([
        ...(s.required ?? []),
        ...(fitting ? Object.keys(s.properties).filter((k) => HINTS[k]) : []),
      ]);
      const entries = Object.entries(s.properties);
      const field = (k: string, v: JsonSchema) => {
        const hint = HINTS[k];
        if (!hint) return valueFor(v, rate, depth + 1);
        return fitting
          ? hint
          : fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: valueFor(v, rate, depth + 1), weight: 1 });
      };
      return fc.record(Object.fromEntries(entries.map(([k, v]) => [k, field(k, v)])), {
        requiredKeys: entries.map(([k]) => k).filter((k) => required.has(k)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

/** JSON text of `value`, with RawJson pieces spliced in as they are. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text =
    JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof RawJson) {
        raws.push(v.text);
        return `\u0001RAW${raws.length - 1}\u0001`;
      }
      return v;
    }) ?? 'null';
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

/** A query-string value: text as is, anything else as JSON (how the GET analytics forms take lists). */
const queryText = (v: unknown) => (typeof v === 'string' ? v : toJsonText(v));

export interface FuzzRequest {
  method: string;
  url: string;
  body?: string;
  contentType?: string;
}

export interface Operation {
  method: string;
  /** OpenAPI path, `{param}` segments. */
  path: string;
  arbitrary: fc.Arbitrary<FuzzRequest>;
}

type OpenApiDoc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: 'path' | 'query'; schema: JsonSchema }[];
        requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
      }
    >
  >;
};

/**
 * One arbitrary request per operation of `doc`. Path parameters are real ids (`ids[name]`,
 * e.g. the seeded organization) most of the time, hostile text otherwise.
 */
export function operationsOf(doc: OpenApiDoc, ids: Record<string, readonly string[]>): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
      const segment = (name: string) =>
        fc.oneof(
          { arbitrary: fc.constantFrom(...(ids[name] ?? ['1'])), weight: 4 },
          {
            arbitrary: fc.constantFrom(
              '0',
              '-1',
              '9999999999999999999999',
              'x'.repeat(300),
              '%00',
              '..',
              '%2e%2e',
              'null',
              '1e20',
              '%ud800',
            ),
            weight: 1,
          },
        );
      const pathArb = fc
        .tuple(...pathParams.map((p) => segment(p.name)))
        .map((values) =>
          pathParams.reduce(
            (acc, p, i) =>
              acc.replace(`{${p.name}}`, values[i]!.startsWith('%') ? values[i]! : encodeURIComponent(values[i]!)),
            path,
          ),
        );
      const schema = op.requestBody?.content['application/json'].schema;
      // Half the requests are mostly hostile (1 node in 5), half mostly fitting (1 in 50), so
      // both the validation and the handlers behind it are reached.
      const requestArb = (rate: number) => {
        const queryArb = fc
          .record(Object.fromEntries(queryParams.map((p) => [p.name, valueFor(p.schema, rate)])), { requiredKeys: [] })
          .map((q) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, queryText(v)])).toString());
        const bodyArb = schema ? valueFor(schema, rate).map(toJsonText) : fc.constant(undefined);
        return fc.tuple(pathArb, queryArb, bodyArb).map(([p, q, body]): FuzzRequest => ({
          method: method.toUpperCase(),
          url: q ? `${p}?${q}` : p,
          ...(body === undefined ? {} : { body, contentType: 'application/json' }),
        }));
      };
      out.push({ method: method.toUpperCase(), path, arbitrary: fc.oneof(requestArb(5), requestArb(50)) });
    }
  }
  return out;
}

/** The SDK ingestion endpoints (outside /api, so outside the document): event-shaped JSON with hostile values. */
export function captureOperations(token: string): Operation[] {
  const rate = 8;
  const event: JsonSchema = {
    type: 'object',
    properties: {
      event: { type: 'string' },
      distinct_id: { type: 'string' },
      timestamp: { type: 'string', format: 'date-time' },
      offset: { type: 'number' },
      uuid: { type: 'string', format: 'uuid' },
      properties: {
        type: 'object',
        properties: { $current_url: { type: 'string' }, amount: { type: 'number' }, $set: { type: 'object' } },
      },
      $set: { type: 'object' },
    },
    required: ['event', 'distinct_id'],
  };
  const body = fc
    .record(
      {
        api_key: fc.oneof({ arbitrary: fc.constant(token), weight: 4 }, { arbitrary: hostile, weight: 1 }),
        batch: fc.array(valueFor(event, rate), { minLength: 1, maxLength: 4 }),
        sent_at: valueFor({ type: 'string', format: 'date-time' }, rate),
      },
      { requiredKeys: ['api_key', 'batch'] },
    )
    .map(toJsonText);
  return ['/batch/', '/capture/', '/e/', '/i/v0/e/'].map((path) => ({
    method: 'POST',
    path,
    arbitrary: body.map((text) => ({ method: 'POST', url: path, body: text, contentType: 'application/json' })),
  }));
}
