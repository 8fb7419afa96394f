import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { isApiError } from './api-client';
import { describeError } from './error-messages';

/** `destination__config__bucket_name` (the API's attr) → `destination.config.bucket_name`. */
export function attrToFieldPath(attr: string): string {
  return attr.split('__').join('.');
}

/**
 * Puts a failed submit's error where the user looks: a 400 whose `attr` names one of the form's
 * fields goes on that field; anything else becomes the form-level error (`errors.root.server`).
 * Returns whether the error landed on a field.
 */
export function applyServerError<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
  error: unknown,
  fields: readonly Path<T>[],
): boolean {
  if (isApiError(error) && error.status === 400 && error.attr) {
    const path = attrToFieldPath(error.attr);
    const field = fields.find((name) => name === path);
    if (field) {
      form.setError(field, { type: 'server', message: error.detail }, { shouldFocus: true });
      return true;
    }
  }
  form.setError('root.server', { type: 'server', message: describeError(error) });
  return false;
}
