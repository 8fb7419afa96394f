import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { workerServer } from './servers';

export { workerServer } from './servers';

export const demoKey = (): string => workerServer().key;

/** Signs in the way the server's printed link does: the key rides in the URL fragment. */
export async function signInWithDemoLink(page: Page, path = '/'): Promise<void> {
  await page.goto(`${path}#key=${demoKey()}`);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** Creates a key with the real CLI against the e2e server's data directory. */
export function createKey(scopes: string, label = 'e2e'): string {
  const { dataDir } = workerServer();
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', 'key', 'create', '--label', label, '--scopes', scopes, '--data-dir', dataDir],
    { encoding: 'utf8' },
  );
  const key = out.split('\n').find((line) => line.startsWith('phx_'));
  if (!key) throw new Error(`key create printed no key: ${out}`);
  return key.trim();
}

export function revokeKeyByLabel(label: string): void {
  const { dataDir } = workerServer();
  const run = (args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'server/main.ts', 'key', ...args, '--data-dir', dataDir], {
      encoding: 'utf8',
    });
  const line = run(['list'])
    .split('\n')
    .find((l) => l.includes(label));
  const id = line?.trim().split(/\s+/)[0];
  if (!id) throw new Error(`no key labelled ${label}`);
  run(['revoke', id]);
}

export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** axe finds nothing on the page as it is now (dialogs open included). */
export async function expectNoViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** The demo key as an Authorization header, for API calls beside the browser. */
export const apiHeaders = () => ({ authorization: `Bearer ${demoKey()}` });

/** The seeded organization "Hedgebox" (its projects, members, domains and batch exports). */
export async function seededOrganization(request: APIRequestContext): Promise<{ id: string; name: string }> {
  const page = await (await request.get('/api/organizations/?limit=100', { headers: apiHeaders() })).json();
  const organization = (page.results as Array<{ id: string; name: string }>).find((o) => o.name === 'Hedgebox');
  if (!organization) throw new Error('No organization "Hedgebox": is the server seeded?');
  return organization;
}

/** The first seeded project (Hedgebox Web), with the seeded demo events. */
export async function seededProject(request: APIRequestContext): Promise<number> {
  const page = await (await request.get('/api/projects/?limit=100', { headers: apiHeaders() })).json();
  const project = (page.results as Array<{ id: number; name: string }>).find((p) => p.name === 'Hedgebox Web');
  if (!project) throw new Error('No project "Hedgebox Web": is the server seeded?');
  return project.id;
}

/**
 * Drags `handle` onto `target` with the mouse as a person would: press, a few pixels (past
 * dnd-kit's 4 px activation distance), then on to the target in steps, release.
 */
export async function drag(page: Page, handle: Locator, target: Locator) {
  const from = await handle.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('the drag handle or its target is not on screen');
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  const toY = to.y + to.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + Math.sign(toY - y) * 8, { steps: 2 });
  await page.mouse.move(x, toY, { steps: 8 });
  await page.mouse.up();
}
