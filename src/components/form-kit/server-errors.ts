import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';

/** `destination__config__bucket_name` (the API's attr) → `destination.config.bucket_name`. */
export function attrToFieldPath(attr: string): string {
  return attr.split('__').join('.');
}

/**
 * Puts a failed submit's error where the user looks: a 400 whose `attr` names one of the form's
 * fields goes on that field; anything else becomes the form-level error (`errors.root.server`).
 * Returns whether the error landed on a field. `fieldOf` turns the attr into the form's path, for a
 * form whose fields are not named as the API's (a cohort's criteria rows).
 */
export function applyServerError<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
  error: unknown,
  fields: readonly Path<T>[],
  fieldOf: (attr: string) => string = attrToFieldPath,
): boolean {
  if (isApiError(error) && error.status === 400 && error.attr) {
    const path = fieldOf(error.attr);
    const field = fields.find((name) => name === path);
    if (field) {
      form.setError(field, { type: 'server', message: error.detail }, { shouldFocus: true });
      return true;
    }
  }
  form.setError('root.server', { type: 'server', message: describeError(error) });
  return false;
}

/**
 * `form.handleSubmit` for a form that talks to the API: runs `action` with the valid values and
 * puts a failure where the user looks (applyServerError). `fields` are the paths the API's
 * `attr` may name (a function when they depend on the values, e.g. the destination type);
 * `fieldOf` as for applyServerError.
 */
export function submitHandler<TInput extends FieldValues, TOutput>(
  form: Pick<UseFormReturn<TInput, unknown, TOutput>, 'handleSubmit' | 'setError' | 'getValues'>,
  fields: readonly Path<TInput>[] | (() => readonly Path<TInput>[]),
  action: (values: TOutput) => Promise<void>,
  fieldOf?: (attr: string) => string,
) {
  return form.handleSubmit(async (values) => {
    try {
      await action(values);
    } catch (error) {
      applyServerError(form, error, typeof fields === 'function' ? fields() : fields, fieldOf);
    }
  });
}
