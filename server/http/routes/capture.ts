import type { Context, Hono } from 'hono';
import { parseCapturePayload } from '../../analytics/store/ingest-parse.ts';
import { readCaptureBody } from '../capture-body.ts';
import { ApiError } from '../errors.ts';
import type { AppEnv, Deps } from '../types.ts';

/**
 * The ingestion endpoints the SDKs post to, unchanged: posthog-node sends gzip JSON
 * `{api_key, batch, sent_at}` to `/batch/`; posthog-js posts to `/e/` or `/i/v0/e/`
 * (`?compression=gzip-js`, or form-encoded `data=`). Authenticated by the project token in
 * the body (or `?token=`/`?api_key=`), not by a personal key. CORS is open: browsers call them.
 */
export const CAPTURE_PATHS = ['/batch', '/capture', '/e', '/i/v0/e', '/track', '/engage'] as const;

const tokenError = (detail: string) =>
  new ApiError(401, { type: 'authentication_error', code: 'invalid_api_key', detail, attr: null });
export const missingToken = () =>
  tokenError('API key not provided. You can find your project API key in your project settings.');
export const invalidToken = () =>
  tokenError('Project API key invalid. You can find your project API key in your project settings.');

/**
 * Any web site may send events (the token in the body authenticates them), but never with the
 * visitor's credentials: `*`, no `Allow-Credentials`, no echoed Origin (the SDKs expect this).
 */
function cors(c: Context<AppEnv>): void {
  c.header('Access-Control-Allow-Origin', '*');
  c.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  const requested = c.req.header('access-control-request-headers');
  c.header(
    'Access-Control-Allow-Headers',
    requested && /^[\w\-, ]{1,500}$/.test(requested) ? requested : 'Content-Type, Content-Encoding',
  );
  c.header('Access-Control-Max-Age', '86400');
  c.header('Cache-Control', 'no-store');
}

export function registerCaptureRoutes(app: Hono<AppEnv>, { store, events, now, pipeline }: Deps): void {
  const capture = async (c: Context<AppEnv>) => {
    cors(c);
    const query = c.req.query();
    const body = await readCaptureBody(c.req.raw, query.compression ?? null);
    const { token, events: batch } = parseCapturePayload(body, now(), query.token ?? query.api_key ?? null);
    if (token === null) throw missingToken();
    const project = store.projects.getByApiToken(token);
    if (!project) throw invalidToken();
    const done = pipeline?.ingesting();
    try {
      await events.append(project.id, batch);
    } finally {
      done?.();
    }
    pipeline?.onIngested(project.id, batch); // queues for the enabled destinations; never waits
    return c.json({ status: 1 }, 200);
  };
  const preflight = (c: Context<AppEnv>) => {
    cors(c);
    return c.body(null, 204);
  };
  for (const path of CAPTURE_PATHS) {
    // The app is built with `strict: false`: `/batch` also matches `/batch/`.
    app.post(path, capture);
    app.options(path, preflight);
  }
}
