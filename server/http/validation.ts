import type { z } from '../../src/contract/z';
import { validationError, type ApiError } from './errors.ts';
import { createTextMemo } from './text-memo.ts';

type Issue = z.core.$ZodIssue;

const TYPE_DETAILS: Record<string, string> = {
  string: 'Not a valid string.',
  boolean: 'Must be a valid boolean.',
  number: 'A valid number is required.',
  int: 'A valid integer is required.',
  array: 'Expected a list of items.',
  object: 'Expected a dictionary of items.',
};

const describe = (v: unknown) => (Array.isArray(v) ? 'list' : v === null ? 'null' : typeof v);

/** The API's error code and human text for one zod issue (docs/api.md, "Wire conventions"). */
function codeAndDetail(issue: Issue): { code: string; detail: string } {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return { code: 'required', detail: 'This field is required.' };
      if (input === null && issue.expected !== 'number') return { code: 'null', detail: 'This field may not be null.' };
      if (issue.path.length === 0 && issue.expected === 'object') {
        return { code: 'invalid_input', detail: `Invalid data. Expected a dictionary, but got ${describe(input)}.` };
      }
      // Custom contract messages win over the generic ones, except a "required" text for a present value.
      if (!issue.message.startsWith('Invalid input') && issue.message !== 'This field is required.') {
        return { code: 'invalid_input', detail: issue.message };
      }
      return { code: 'invalid_input', detail: TYPE_DETAILS[issue.expected] ?? issue.message };
    case 'too_small':
      if (issue.origin === 'string')
        return { code: Number(issue.minimum) <= 1 ? 'blank' : 'min_length', detail: issue.message };
      return { code: issue.origin === 'array' ? 'min_length' : 'min_value', detail: issue.message };
    case 'too_big':
      return {
        code: issue.origin === 'string' || issue.origin === 'array' ? 'max_length' : 'max_value',
        detail: issue.message,
      };
    case 'invalid_value':
      return { code: 'invalid_choice', detail: issue.message };
    default:
      return { code: 'invalid_input', detail: issue.message };
  }
}

/** `['destination', 'config', 'bucket_name']` → `destination__config__bucket_name`; root → null. */
export const issueAttr = (path: readonly PropertyKey[]): string | null =>
  path.length === 0 ? null : path.map(String).join('__');

/** The 400 for the first issue (the API reports one field at a time, like the production service). */
export function zodToApiError(error: z.core.$ZodError): ApiError {
  const issue = error.issues[0];
  if (!issue) return validationError('invalid_input', 'Invalid input.', null);
  const { code, detail } = codeAndDetail(issue);
  return validationError(code, detail, issueAttr(issue.path));
}

/** Parses `input` with `schema` or throws the API's 400. */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw zodToApiError(result.error);
  return result.data;
}

/** Freezes `value` and everything it holds: a parse kept for later requests cannot be changed by one of them. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * `parse` remembered by the text its input came from (a path, a query string): the same text
 * gives the same output, so a page asked for again and again is not validated again. Outputs are
 * frozen, deeply, so no request can change what the next one gets; a parse that throws (the
 * API's 400 or 404) is not kept; a null text (too long, or not plain) is parsed and not kept.
 */
export function createParseMemo<T>(parse: (input: unknown) => T) {
  const outputs = createTextMemo<T>();
  return (text: string | null, input: () => unknown): T => {
    const run = () => deepFreeze(parse(input()));
    return text === null ? run() : outputs(text, run);
  };
}
