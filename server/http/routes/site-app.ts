import type { Context, Hono } from 'hono';
import { siteAppHash, siteAppScript } from '../../plugins/site-app.ts';
import type { AppEnv, Deps } from '../types.ts';

/** `/site_app/<config id>/<project token>/<hash>/`: a frontend app's script (server/plugins/site-app.ts), for web sites. */
export function registerSiteAppRoutes(app: Hono<AppEnv>, { store }: Deps): void {
  const serve = async (c: Context<AppEnv>) => {
    c.header('Access-Control-Allow-Origin', '*');
    const id = Number(c.req.param('id'));
    const row = Number.isInteger(id) && id > 0 ? store.pluginConfigs.get(id) : undefined;
    const plugin = row ? store.plugins.get(row.plugin_id) : undefined;
    const project = row ? store.projects.get(row.team_id) : undefined;
    const script =
      row &&
      plugin &&
      project &&
      row.enabled === 1 &&
      plugin.grp === 'pipeline_frontend_apps' &&
      project.api_token === c.req.param('token')
        ? await siteAppScript(store, row, plugin)
        : null;
    if (script === null) return c.text('Not found.\n', 404);
    c.header('Content-Type', 'application/javascript; charset=utf-8');
    c.header('Cache-Control', c.req.param('hash') === siteAppHash(row!, plugin!) ? 'public, max-age=3600' : 'no-store');
    return c.body(script);
  };
  app.get('/site_app/:id/:token/:hash', serve);
  app.get('/site_app/:id/:token/:hash/', serve);
}
