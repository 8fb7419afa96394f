import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import {
  apiHeaders,
  demoKey,
  expectNoViolations,
  seededOrganization,
  seededProject,
  signInWithDemoLink,
} from './fixtures';

/** What the page is painted with: <body>'s background colour. */
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('theme: light, dark or the system, from the keyboard; remembered and applied before the app runs', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  const org = await seededOrganization(page.request);
  await signInWithDemoLink(page, `/organizations/${org.id}`);
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
  const light = await background(page);

  // Native radios: arrow keys move the choice.
  await theme.getByRole('radio', { name: 'System' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(theme.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect.poll(() => background(page)).not.toBe(light);
  const dark = await background(page);
  await expectNoViolations(page);

  // Reloaded with the app's scripts refused: the page is already dark, so it never flashes light.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background(page)).toBe(dark);
  await page.unroute(/\/assets\/.*\.js$/);

  // "System" follows the system's setting as it changes.
  await signInWithDemoLink(page, '/organizations');
  await expect(theme.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await theme.getByRole('radio', { name: 'System' }).check();
  expect(await background(page)).toBe(light);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background(page)).toBe(dark);
  await theme.getByRole('radio', { name: 'Light' }).check();
  expect(await background(page)).toBe(light);

  // On a phone the choice is in the menu's drawer.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(theme).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer.getByRole('radio', { name: 'Light' })).toBeChecked();
  await drawer.getByRole('radio', { name: 'Dark' }).check();
  expect(await background(page)).toBe(dark);
});

/** Whether an error box's words or a skeleton ever showed since the page's first script. */
interface Seen {
  error: string;
  skeleton: boolean;
}
declare global {
  interface Window {
    __seen?: Seen;
  }
}

/** Every page of the app, by deep link, with the seeded organization's and project's ids. */
async function everyPage(page: Page): Promise<string[]> {
  const get = async (path: string) =>
    (await (await page.request.get(path, { headers: apiHeaders() })).json()) as {
      results: Array<Record<string, unknown>>;
    };
  const org = (await seededOrganization(page.request)).id;
  const project = await seededProject(page.request);
  const exportId = (await get(`/api/organizations/${org}/batch_exports/?limit=1`)).results[0]!.id as string;
  const domainId = (await get(`/api/organizations/${org}/domains/?limit=1`)).results[0]!.id as string;
  const pluginId = (await get(`/api/organizations/${org}/pipeline_destinations/?limit=1`)).results[0]!.id as number;
  const insight = (await get(`/api/projects/${project}/insights/?limit=1&saved=true`)).results[0]!.short_id as string;
  // A person: one who signed up after a page view (a funnel's converted persons).
  const funnel = new URLSearchParams({
    events: JSON.stringify([
      { id: '$pageview', order: 0 },
      { id: 'user signed up', order: 1 },
    ]),
    date_from: '-30d',
    funnel_step: '2',
    limit: '1',
  });
  const persons = (await (
    await page.request.get(`/api/projects/${project}/persons/funnel/?${funnel}`, { headers: apiHeaders() })
  ).json()) as { results: [{ people: [{ id: string }] }] };
  const person = persons.results[0].people[0].id;
  const o = `/organizations/${org}`;
  const p = `/projects/${project}`;
  return [
    '/organizations',
    o,
    `${o}/members`,
    `${o}/invites`,
    `${o}/invites/new`,
    `${o}/domains`,
    `${o}/domains/${domainId}`,
    `${o}/batch-exports`,
    `${o}/batch-exports/new`,
    `${o}/batch-exports/${exportId}`,
    `${o}/batch-exports/${exportId}/edit`,
    `${o}/pipeline/destinations`,
    `${o}/pipeline/destinations/${pluginId}`,
    p,
    `${p}/insights`,
    `${p}/insights/${insight}`,
    `${p}/insights/${insight}/edit`,
    `${p}/insights/new/trends`,
    `${p}/persons/${person}`,
  ];
}

const seenOn = (page: Page) => page.evaluate(() => window.__seen!);

/** Opens each path in a tab of its own (a first visit), four at a time, and runs `check` on it; never an error box. */
async function inTabs(context: BrowserContext, paths: string[], check: (tab: Page, path: string) => Promise<void>) {
  for (let i = 0; i < paths.length; i += 4) {
    await Promise.all(
      paths.slice(i, i + 4).map(async (path, j) => {
        const tab = await context.newPage();
        // Every other one on a phone (the shell's drawer instead of its sidebar).
        if (j % 2) await tab.setViewportSize({ width: 390, height: 844 });
        await tab.goto(`${path}#key=${demoKey()}`);
        await check(tab, path);
        expect((await seenOn(tab)).error, path).toBe('');
        await tab.close();
      }),
    );
  }
}

test('every page shows a skeleton while its data is late and says the server is unreachable when it is; never a framework error', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const paths = await everyPage(page);
  await context.addInitScript(() => {
    const seen: Seen = { error: '', skeleton: false };
    window.__seen = seen;
    new MutationObserver(() => {
      const text = document.body?.textContent ?? '';
      const error = /Something went wrong|Invariant/.exec(text)?.[0];
      if (error && !seen.error) seen.error = `${error} at ${location.pathname}`;
      if (document.querySelector('.animate-pulse')) seen.skeleton = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });

  // Every API answer a second late: the shell and a skeleton first, then the page.
  await context.route('**/api/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.continue().catch(() => undefined); // the page may have moved on
  });
  await inTabs(context, paths, async (tab, path) => {
    await expect(tab.getByRole('banner').getByRole('button', { name: 'Sign out' }), path).toBeVisible();
    await expect
      .poll(async () => (await seenOn(tab)).skeleton, { message: `${path}: a skeleton while loading` })
      .toBe(true);
    await expect(tab.locator('main h1').first(), path).toBeVisible({ timeout: 20_000 });
    await expect(tab.locator('main .animate-pulse'), `${path}: loaded`).toHaveCount(0, { timeout: 20_000 });
  });

  // The server unreachable: the shell and the offline banner at once, then the page's own
  // explanation once the retries are spent.
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.route('**/api/**', (route) => route.abort('connectionrefused'));
  await inTabs(context, paths, async (tab, path) => {
    await expect(tab.getByText(/Can't reach the server/).first(), path).toBeVisible();
    await expect(tab.getByRole('heading', { name: "Can't reach the server" }), path).toBeVisible({ timeout: 30_000 });
  });
});
