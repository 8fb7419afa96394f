import { z } from '../../src/contract/z';
import { apiErrorBodySchema, type Endpoint } from '../../src/contract/index.ts';
import type { RegisteredEndpoint } from './router.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return rest;
}

/** `/api/organizations/:id/` → `/api/organizations/{id}/`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parameters(schema: z.ZodMiniType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: s,
  }));
}

function security(e: Endpoint, isPublic: boolean) {
  if (isPublic) return { security: [] };
  if (e.access === null) return { security: [], 'x-personal-api-key-access': false };
  if (e.access === 'authenticated') return { security: [{ PersonalAPIKeyAuth: [] }] };
  return { security: [{ PersonalAPIKeyAuth: [e.access] }], 'x-required-scope': e.access };
}

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
});

function operation({ endpoint: e, public: isPublic }: RegisteredEndpoint) {
  const success = e.response
    ? { description: e.summary, content: { 'application/json': { schema: jsonSchema(e.response, 'output') } } }
    : { description: e.status === 204 ? 'No content' : 'Empty body' };
  const responses: Record<string, unknown> = { [String(e.status)]: success };
  if (e.body || e.query) responses['400'] = errorRef('Invalid input');
  if (!isPublic) {
    responses['401'] = errorRef('Missing or invalid personal API key');
    responses['403'] = errorRef('The key lacks the scope, or cannot reach the object');
  }
  if (e.params) responses['404'] = errorRef('Not found');
  return {
    operationId: `${e.method.toLowerCase()}${e.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/_$/, '')}`,
    summary: e.summary,
    // A client written for the production service must not count on these paths.
    ...(e.extension ? { 'x-extension': 'reference-server', tags: ['Reference server extensions'] } : {}),
    ...security(e, isPublic),
    parameters: [...parameters(e.params, 'path'), ...parameters(e.query, 'query')],
    ...(e.body ? { requestBody: { required: true, content: bodyContent(e.body, e.multipart === true) } } : {}),
    responses,
  };
}

/** A body's content types: JSON, and the same fields as a multipart form where the endpoint takes one (a file upload). */
function bodyContent(body: NonNullable<Endpoint['body']>, multipart: boolean) {
  const schema = jsonSchema(body, 'input');
  return { 'application/json': { schema }, ...(multipart ? { 'multipart/form-data': { schema } } : {}) };
}

/** OpenAPI 3.1 document of exactly the endpoints the server registered. */
export function buildOpenApiDocument(registered: readonly RegisteredEndpoint[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of registered) {
    const item = (paths[openApiPath(entry.endpoint.path)] ??= {});
    item[entry.endpoint.method.toLowerCase()] = operation(entry);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Analytics Management API (reference server)',
      version: '1.0.0',
      description: 'Generated from the contract registry (src/contract): the routes this server serves.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        PersonalAPIKeyAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Personal API key: `Authorization: Bearer phx_…`',
        },
      },
      schemas: { ApiError: jsonSchema(apiErrorBodySchema, 'output') },
    },
  };
}
