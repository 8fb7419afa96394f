/**
 * `@testing`: the one home of component-test helpers (outside src/, since it runs the reference
 * server from server/). Only test files import it; lint keeps app code away from it.
 */
export { HEDGEBOX, mswServer, NORTHWIND, setupTestApi, type TestApi } from './api-server';
export {
  apiUrl,
  failWithNetworkError,
  failWithServerError,
  override,
  serverErrorResponse,
  slowDown,
} from './overrides';
export { renderApp, type RenderAppOptions } from './render-app';
export { compilePluginSourcesInTheseTests } from './esbuild';
