/** The form kit: every form is built from these (see docs/kits.md). */
export { CheckboxField, FormError, SelectField, TextareaField, TextField } from './fields';
export { Fieldset } from './fieldset';
export { FormFooter } from './form-footer';
export { applyServerError, attrToFieldPath, submitHandler } from './server-errors';
