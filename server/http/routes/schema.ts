import { endpoint } from '../../../src/contract/index.ts';
import { buildOpenApiDocument } from '../openapi.ts';
import type { Router } from '../router.ts';

/** The OpenAPI document itself: public (it holds no data), built once on first request. */
export const schemaEndpoint = endpoint({
  method: 'GET',
  path: '/api/schema/',
  access: 'authenticated',
  summary: 'OpenAPI 3.1 document of this server',
  status: 200,
});

export function registerSchemaRoute(router: Router): void {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  // The endpoint declares no response schema (the document is not an API resource): a Response of its own.
  router.publicRoute(schemaEndpoint, ({ c }) => c.json((document ??= buildOpenApiDocument(router.registered))));
}
