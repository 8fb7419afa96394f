import { Hono, type Context } from 'hono';
import { createEventStore, type EventStore } from './analytics/store/event-store.ts';
import { createAuthenticator, type Authenticate } from './http/auth.ts';
import { apiErrorOf, notFound, serverError } from './http/errors.ts';
import { compressResponses } from './http/compression.ts';
import { apiOrigin, securityHeaders } from './http/headers.ts';
import { refuseDotSegments } from './http/raw-request.ts';
import { createProxyHandler } from './http/proxy.ts';
import { requestLog } from './http/request-log.ts';
import { allowedHostsOnly, publicUrlOf, type PublicUrl } from './http/public-url.ts';
import { createRouter, type Router } from './http/router.ts';
import { registerAnalyticsRoutes, registerFunnelRetentionPathRoutes } from './http/routes/analytics/routes.ts';
import { preparePersonIndexes } from './http/routes/analytics/endpoint.ts';
import { registerBatchExportRoutes } from './http/routes/batch-exports/routes.ts';
import { registerCaptureRoutes } from './http/routes/capture.ts';
import { registerCohortRoutes } from './http/routes/cohorts/routes.ts';
import { registerDefinitionRoutes } from './http/routes/definitions/routes.ts';
import { registerPersonRoutes } from './http/routes/persons/routes.ts';
import { registerDomainRoutes } from './http/routes/domains/routes.ts';
import { registerGroupRoutes } from './http/routes/groups/routes.ts';
import { registerInsightRoutes } from './http/routes/insights/routes.ts';
import { registerInviteRoutes } from './http/routes/invites/routes.ts';
import { registerMemberRoutes } from './http/routes/members/routes.ts';
import { registerOrganizationRoutes } from './http/routes/organizations/routes.ts';
import { registerPersonalApiKeyRoutes } from './http/routes/personal-api-keys/routes.ts';
import { registerPluginConfigRoutes } from './http/routes/pipeline/plugin-configs.ts';
import { registerPipelineRoutes } from './http/routes/pipeline/routes.ts';
import { registerProjectRoutes } from './http/routes/projects/routes.ts';
import { registerSchemaRoute } from './http/routes/schema.ts';
import { registerSiteAppRoutes } from './http/routes/site-app.ts';
import { registerUserRoutes } from './http/routes/users/routes.ts';
import { createStaticHandler } from './http/static.ts';
import { createPipelineRuntime, type PipelineRuntime } from './plugins/runtime.ts';
import type { AppEnv, Deps, Logger } from './http/types.ts';
import type { Store } from './store/store.ts';

export type { Logger } from './http/types.ts';

export type AppOptions = {
  now?: () => Date;
  /** Request lines are dropped unless given (quiet tests); errors go to stderr by default. */
  logger?: Partial<Logger>;
  /** Directory of the built SPA. Default `dist/`. */
  staticDir?: string;
  /** How long identical analytics requests are answered from the cache; 0 turns it off. */
  analyticsCacheTtlMs?: number;
  /** Time budget of one analytics request; default 9 s (`ANALYTICS_TIMEOUT_MS`). */
  analyticsTimeoutMs?: number;
  /** Other API origins the dashboard may connect to (CSP connect-src), besides its own and the upstream. */
  apiOrigins?: readonly string[];
  /** Hosts pipeline plugins may reach although private or loopback (`--allow-destination`). */
  allowDestinations?: readonly string[];
  /** The destinations' runtime; default one made here (retries 0.5 s, 2 s, 5 s). */
  pipeline?: PipelineRuntime;
  /** Where the server is reached from outside (default http://localhost): links are built from it, other Hosts get a 400. */
  publicUrl?: PublicUrl;
  /** Ask for every project's person index at once (server/analytics/person-index/person-index.ts): ready before the first funnel. */
  preparePersonIndexes?: boolean;
} &
  /** `events`: the event store; default an in-memory one (opened only if used). */
  (
    | { store: Store; events?: EventStore; upstream?: undefined }
    /** Proxy mode: /api goes to `upstream`; no local store. */
    | { upstream: string; store?: undefined; events?: undefined }
  );

/** Writes request lines to stdout and failures to stderr. */
export const consoleLogger: Logger = {
  request: (line) => process.stdout.write(`${line}\n`),
  error: (message, error) => console.error(message, error),
};

/** Registers every API route of the reference server. Add a resource here. */
function registerApi(router: Router, deps: Deps, authenticate: Authenticate): void {
  registerOrganizationRoutes(router, deps);
  registerProjectRoutes(router, deps);
  registerBatchExportRoutes(router, deps);
  registerPersonalApiKeyRoutes(router);
  registerUserRoutes(router, deps);
  registerAnalyticsRoutes(router, deps);
  registerFunnelRetentionPathRoutes(router, deps);
  registerInsightRoutes(router, deps);
  registerCohortRoutes(router, deps);
  registerGroupRoutes(router, deps);
  registerDefinitionRoutes(router, deps);
  // After the analyses: `persons/funnel/` is theirs, not a person's id.
  registerPersonRoutes(router, deps);
  registerPipelineRoutes(router, deps);
  registerPluginConfigRoutes(router, deps);
  registerMemberRoutes(router, deps);
  registerInviteRoutes(router, deps, authenticate);
  registerDomainRoutes(router, deps);
  registerSchemaRoute(router); // last: the OpenAPI document lists what was registered before it
}

/** The reference server as a Hono app: `app.fetch` / `app.request()` work without a socket. */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const logger: Logger = {
    request: options.logger?.request ?? (() => {}),
    error: options.logger?.error ?? consoleLogger.error,
  };
  const now = options.now ?? (() => new Date());
  const app = new Hono<AppEnv>({ strict: false });

  if (options.logger?.request) app.use('*', requestLog(logger.request));
  const apiOrigins = [
    ...(options.upstream ? [apiOrigin(options.upstream)] : []),
    ...(options.apiOrigins ?? []).map(apiOrigin),
  ];
  app.use('*', securityHeaders(apiOrigins));
  app.use('*', refuseDotSegments());
  const publicUrl = options.publicUrl ?? publicUrlOf(undefined);
  app.use('*', allowedHostsOnly(publicUrl));
  app.onError((error, c) => {
    const apiError = apiErrorOf(error);
    if (apiError) return apiError.render(c);
    logger.error(`${c.req.method} ${c.req.path} failed`, error);
    return serverError().render(c);
  });

  if (options.upstream !== undefined) {
    const proxy = createProxyHandler(options.upstream, logger);
    app.all('/api', proxy);
    app.all('/api/*', proxy);
  } else {
    const deps: Deps = {
      store: options.store,
      events: options.events ?? createEventStore(':memory:'),
      now,
      publicUrl,
      analyticsCacheTtlMs: options.analyticsCacheTtlMs,
      analyticsTimeoutMs: options.analyticsTimeoutMs ?? (Number(process.env.ANALYTICS_TIMEOUT_MS) || undefined),
      allowDestinations: options.allowDestinations ?? [],
      jobs: new Set(),
      pipeline:
        options.pipeline ??
        createPipelineRuntime({ store: options.store, now, allowHosts: options.allowDestinations ?? [] }),
    };
    // API answers and shared insights over 1 kB, compressed for clients that accept it.
    app.use('/api/*', compressResponses());
    app.use('/shared/*', compressResponses());
    registerCaptureRoutes(app, deps); // /batch/, /capture/, /e/: the SDKs' ingestion, outside /api
    registerSiteAppRoutes(app, deps); // /site_app/<config id>/<token>/<hash>/: frontend apps for web sites
    const authenticate = createAuthenticator(options.store, now);
    const router = createRouter(app, authenticate, publicUrl);
    registerApi(router, deps, authenticate);
    if (options.preparePersonIndexes)
      preparePersonIndexes(deps).catch((error: unknown) => logger.error('preparing the person indexes failed', error));
    const fallback = (c: Context<AppEnv>) => {
      const allowed = router.allowedMethods(c.req.path);
      if (allowed.length === 0) return notFound().render(c);
      return c.body(null, 405, { Allow: allowed.join(', ') });
    };
    app.all('/api', fallback);
    app.all('/api/*', fallback);
  }

  app.get('*', createStaticHandler(options.staticDir ?? 'dist'));
  app.notFound((c) => c.text('Not found.\n', 404));
  return app;
}
