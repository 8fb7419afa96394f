/**
 * A parameter the engine cannot use: the route turns it into the API's 400
 * (`validation_error`, code `invalid_input`) with `attr` naming the parameter
 * (`date_from`, `formula`, `events__0__properties__values__1__value`, …).
 */
export class AnalyticsParamError extends Error {
  constructor(readonly attr: string, message: string, readonly code = 'invalid_input') {
    super(message);
  }
}
