import { InputError } from '../domain-errors.ts';

/**
 * A parameter the engine cannot use: the route turns it into the API's 400
 * (`validation_error`, code `invalid_input`) with `attr` naming the parameter
 * (`date_from`, `formula`, `events__0__properties__values__1__value`, …).
 */
export class AnalyticsParamError extends InputError {
  declare readonly attr: string;
  constructor(attr: string, message: string, code = 'invalid_input') {
    super(attr, message, code);
  }
}
