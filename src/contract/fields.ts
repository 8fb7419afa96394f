import { z } from './z';

/**
 * Field builders whose error messages follow the production service (Django REST framework):
 * 'This field is required.', 'This field may not be null.', '"x" is not a valid choice.' ...
 * Every request schema of members, invites, domains, batch exports, plugins, insights and
 * analytics is built from these, so a 400 carries human text and a meaningful `attr`.
 */

export const MESSAGES = {
  required: 'This field is required.',
  null: 'This field may not be null.',
  blank: 'This field may not be blank.',
  string: 'Not a valid string.',
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  boolean: 'Must be a valid boolean.',
  email: 'Enter a valid email address.',
  url: 'Enter a valid URL.',
  uuid: 'Must be a valid UUID.',
  datetime:
    'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  json: 'Value must be valid JSON.',
} as const;

/** The Python type name DRF puts in 'Expected a list of items but got type "str".' */
export function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'object':
      return 'dict';
    default:
      return typeof value;
  }
}

type RawIssue = { code?: string; input?: unknown };

/** Error map for a type check: required / null / the given invalid-type text. */
export function typeError(invalid: string | ((input: unknown) => string)) {
  return (iss: RawIssue) => {
    if (iss.input === undefined) return MESSAGES.required;
    if (iss.input === null) return MESSAGES.null;
    return typeof invalid === 'string' ? invalid : invalid(iss.input);
  };
}

export const choiceMessage = (input: unknown) =>
  `"${typeof input === 'string' ? input : JSON.stringify(input)}" is not a valid choice.`;

/** Non-blank text, optionally with DRF's max_length. */
export function text(max?: number) {
  const s = z.string({ error: typeError(MESSAGES.string) }).check(z.minLength(1, { error: MESSAGES.blank }));
  return max === undefined
    ? s
    : s.check(z.maxLength(max, { error: `Ensure this field has no more than ${max} characters.` }));
}

/** Text that may be blank (`allow_blank=True`). */
export function blankableText(max?: number) {
  const s = z.string({ error: typeError(MESSAGES.string) });
  return max === undefined
    ? s
    : s.check(z.maxLength(max, { error: `Ensure this field has no more than ${max} characters.` }));
}

export function bool() {
  return z.boolean({ error: typeError(MESSAGES.boolean) });
}

export function integer(opts: { min?: number; max?: number } = {}) {
  let s = z.number({ error: typeError(MESSAGES.integer) }).check(z.int({ error: MESSAGES.integer }));
  if (opts.min !== undefined)
    s = s.check(z.gte(opts.min, { error: `Ensure this value is greater than or equal to ${opts.min}.` }));
  if (opts.max !== undefined)
    s = s.check(z.lte(opts.max, { error: `Ensure this value is less than or equal to ${opts.max}.` }));
  return s;
}

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;
export const int32 = () => integer({ min: INT32_MIN, max: INT32_MAX });

export function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (iss) =>
      iss.input === undefined ? MESSAGES.required : iss.input === null ? MESSAGES.null : choiceMessage(iss.input),
  });
}

export function email() {
  return z.email({ error: typeError(MESSAGES.email) }).check(
    z.maxLength(254, {
      error: 'Ensure this field has no more than 254 characters.',
    }),
  );
}

export function url() {
  return z.url({ error: typeError(MESSAGES.url), protocol: /^https?$/ });
}

export function uuid() {
  return z.uuid({ error: typeError(MESSAGES.uuid) });
}

/** ISO 8601 datetime that must carry a time zone (`Z` or `±HH:MM`). */
export function zonedDatetime() {
  return z.iso.datetime({ offset: true, error: typeError(MESSAGES.datetime) });
}

/** A list, optionally with DRF's max_length for lists ("no more than N elements"). */
export function list<T extends z.ZodMiniType>(item: T, max?: number) {
  const s = z.array(item, {
    error: typeError((input) => `Expected a list of items but got type "${pythonTypeName(input)}".`),
  });
  return max === undefined
    ? s
    : s.check(z.maxLength(max, { error: `Ensure this field has no more than ${max} elements.` }));
}

export function dict() {
  return z.record(z.string(), z.unknown(), {
    error: typeError((input) => `Expected a dictionary of items but got type "${pythonTypeName(input)}".`),
  });
}

/**
 * A boolean query parameter: 'true'/'false' (also '1'/'0', any case) as text, or an actual
 * boolean (router search params arrive parsed).
 */
export function queryBool() {
  return z.pipe(
    z.transform((v) => {
      if (typeof v !== 'string') return v;
      const t = v.toLowerCase();
      if (t === 'true' || t === '1') return true;
      if (t === 'false' || t === '0') return false;
      return v;
    }),
    bool(),
  );
}

/** An integer query parameter given as text (`?created_by=3`) or as a number. */
export function queryInt(opts: { min?: number; max?: number } = {}) {
  return z.pipe(
    z.transform((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v)),
    integer(opts),
  );
}
