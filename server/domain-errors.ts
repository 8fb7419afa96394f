/**
 * The errors of the domain modules (analytics, plugins, insights, …), which know nothing of HTTP:
 * server/http/errors.ts (`apiErrorOf`) turns each into the API's status and body, in one place
 * (docs/server.md, "Layers").
 */

/**
 * Input the domain refuses: the API's 400 (`validation_error`) with `code` (`invalid_input`,
 * `required`, …), the message as `detail`, and `attr` naming the field
 * (`batch__3__event`, `config__url`, `query__series__0__math`) or null for the whole input.
 */
export class InputError extends Error {
  constructor(
    readonly attr: string | null,
    message: string,
    readonly code = 'invalid_input',
  ) {
    super(message);
  }
}
