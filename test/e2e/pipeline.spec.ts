import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PostHog } from 'posthog-node';
import { apiHeaders, drag, expectNoViolations, seededProject, signInWithDemoLink } from './fixtures';

/**
 * Pipeline apps in the browser: install a webhook destination from the repository, configure and
 * enable it, send events with the real posthog-node SDK and see them at this test's receiver and
 * in the metrics; a syntax error in a source plugin shown on its line, then fixed; axe on each view
 * (frontend and import apps' lists and pages, the upgrade and delete dialogs in the second test);
 * a frontend app's script loaded by a page runs with its config.
 */
test('a destination installed, enabled and delivering; a source plugin fixed after a compile error', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(60_000); // about 20 s on an idle machine; axe alone takes 15 s a pass under heavy load
  const received: { event: string; distinct_id: string }[] = [];
  let sitePage = '';
  const receiver = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(sitePage); // the customer's web site
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as { event: string; distinct_id: string });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const projectId = await seededProject(request);
    const project = (await (await request.get(`/api/projects/${projectId}/`, { headers: apiHeaders() })).json()) as {
      api_token: string;
      organization: string;
    };
    // the code editor (CodeMirror) loads with the source route only
    const editorCode: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/code-editor-[^/]+\.js$/.test(r.url())) editorCode.push(r.url());
    });
    await signInWithDemoLink(page, `/organizations/${project.organization}/pipeline/destinations`);
    const installed = page.getByRole('table', { name: 'Destinations' });
    await expect(installed).toBeVisible();
    await expectNoViolations(page);
    const before = await installed.getByRole('link', { name: 'Webhook', exact: true }).count();
    await page.getByRole('button', { name: 'Install Webhook' }).click();
    await expect(installed.getByRole('link', { name: 'Webhook', exact: true })).toHaveCount(before + 1);
    await installed.getByRole('link', { name: 'Webhook', exact: true }).last().click();

    const form = page.getByRole('form', { name: 'Configuration in Hedgebox Web' });
    await form.getByLabel('Webhook URL (required)').fill(receiverUrl);
    await form.getByLabel('Enabled in Hedgebox Web').check();
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 }); // a toast mid-fade fails color-contrast
    await expectNoViolations(page);
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await expect(page.getByRole('heading', { name: 'Logs' })).toBeVisible();

    const distinctId = `pipeline-e2e-${Date.now()}`;
    const client = new PostHog(project.api_token, { host: baseURL!, flushAt: 10, flushInterval: 0 });
    for (const event of ['signed up', 'opened file', 'shared file'])
      client.capture({ distinctId, event, properties: { from: 'e2e' } });
    await client.shutdown();
    await expect
      .poll(
        () =>
          received
            .filter((r) => r.distinct_id === distinctId)
            .map((r) => r.event)
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(['opened file', 'shared file', 'signed up']);
    await expect
      .poll(
        async () => {
          await page.reload();
          return Number((await page.getByTestId('metric-delivered').textContent())?.replace(/\D/g, ''));
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(3);
    // A source plugin: a syntax error is shown on its line, the fix saves.
    await page.goto(`/organizations/${project.organization}/pipeline/destinations`);
    await page.getByRole('link', { name: 'Signup forwarder' }).click();
    await expect(page.getByRole('link', { name: 'Edit source' })).toBeVisible();
    expect(editorCode).toEqual([]);
    await page.getByRole('link', { name: 'Edit source' }).click();
    const editor = page.getByRole('textbox', { name: 'Contents of index.ts' });
    await expect(editor).toBeVisible();
    expect(editorCode).toHaveLength(1);
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\nconst broken = ;\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toContainText(/index\.ts, line \d+: Unexpected/);
    await expect(page.locator('.cm-error-line')).toContainText('const broken = ;');
    await expectNoViolations(page);
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(
      'export async function onEvent(event, { config }) {\n  await fetch(config.url, { method: "POST", body: JSON.stringify(event) })\n}\n',
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved and compiled')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    // The seeded notification bar, as a web site loads it (posthog-js's site app protocol).
    const configs = (await (
      await request.get(`/api/projects/${projectId}/plugin_configs/`, { headers: apiHeaders() })
    ).json()) as { results: { id: number; site_app_url: string | null }[] };
    const site = configs.results.find((c) => c.site_app_url)!;
    sitePage = `<!doctype html><html lang="en"><title>Shop</title><body><script>window['__$$ph_site_app_${site.id}'] = { capture() {} }</script><script src="${baseURL!}${site.site_app_url!}"></script></body></html>`;
    await page.goto(receiverUrl.replace('/hook', '/shop'));
    await expect(page.getByRole('status')).toHaveText('New: shared folders are here');
  } finally {
    receiver.close();
  }
});

/** Opens `dialog` with `button`, runs axe on the page with it open, and closes it with Cancel (nothing changes). */
async function axeOnDialog(page: Page, button: Locator, dialog: Locator): Promise<void> {
  await button.click();
  await expect(dialog).toBeVisible();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running')); // opening fade: contrast mid-way
  await expectNoViolations(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
}

/** A group's list with `app` in it passes axe; then the app's own page opens (its heading shown). */
async function listThenApp(page: Page, group: string, app: string): Promise<void> {
  const table = page.getByRole('table', { name: group });
  await expect(table.getByRole('link', { name: app, exact: true })).toBeVisible();
  await expectNoViolations(page);
  await table.getByRole('link', { name: app, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: app })).toBeVisible();
}

test('frontend and import apps: their lists, detail pages, and the upgrade and delete dialogs pass axe', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000); // axe alone takes several seconds a pass under load
  const projectId = await seededProject(request);
  const { organization } = (await (
    await request.get(`/api/projects/${projectId}/`, { headers: apiHeaders() })
  ).json()) as { organization: string };

  await signInWithDemoLink(page, `/organizations/${organization}/pipeline/frontend-apps`);
  await listThenApp(page, 'Frontend apps', 'Feedback widget');
  await expect(page.getByRole('form', { name: 'Configuration in Hedgebox Web' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
  await expectNoViolations(page);
  // The seeded widget is a version behind (0.8.0): the upgrade dialog shows the change.
  const upgrade = page.getByRole('alertdialog', { name: 'Upgrade Feedback widget' });
  await axeOnDialog(page, page.getByRole('button', { name: 'Upgrade…' }), upgrade);
  await axeOnDialog(
    page,
    page.getByRole('button', { name: 'Delete' }),
    page.getByRole('alertdialog', { name: 'Delete Feedback widget' }),
  );
  // Both cancelled: still there, still a version behind.
  await expect(page.getByText('Update available: 0.9.0')).toBeVisible();

  await page.goto(`/organizations/${organization}/pipeline/import-apps`);
  await expect(page.getByRole('table', { name: 'Import apps' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Write your own' })).toHaveCount(0);
  await listThenApp(page, 'Import apps', 'CSV importer');
  await expect(page.getByRole('button', { name: 'Start import' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Logs' })).toBeVisible();
  await expectNoViolations(page);
});

const PHONE = { width: 390, height: 844 };

/** The names in the processing order, first to last. */
const orderOf = (list: Locator) => list.getByRole('listitem').getByRole('link').allTextContents();

test('processing order: moved by drag and by keyboard, saved, the same after a reload; at phone width too', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const projectId = await seededProject(request);
  const { organization } = (await (
    await request.get(`/api/projects/${projectId}/`, { headers: apiHeaders() })
  ).json()) as { organization: string };
  await signInWithDemoLink(page, `/organizations/${organization}/pipeline/destinations`);
  const list = page.getByRole('list', { name: 'Processing order in Hedgebox Web' });
  await expect(list.getByRole('link', { name: 'Event logger', exact: true })).toBeVisible();
  const before = await orderOf(list);
  const logger = before.indexOf('Event logger');
  expect(logger).toBeGreaterThan(0);
  const above = before[logger - 1]!; // names may repeat (another test installs a second webhook): rows go by position

  // By drag: the event logger onto the row above it (both on screen first: the mouse works in the viewport).
  await page.getByRole('heading', { name: 'Processing order' }).scrollIntoViewIfNeeded();
  await list.getByRole('button', { name: 'Reorder Event logger' }).scrollIntoViewIfNeeded();
  await drag(
    page,
    list.getByRole('button', { name: 'Reorder Event logger' }),
    list
      .getByRole('listitem')
      .nth(logger - 1)
      .getByRole('button', { name: /^Reorder / }),
  );
  const dragged = [...before];
  dragged.splice(logger - 1, 2, 'Event logger', above);
  await expect(page.getByText('Order saved.')).toBeVisible();
  await expect.poll(() => orderOf(list)).toEqual(dragged);

  // By keyboard: Space on its handle, arrow down, Space puts it back.
  await list.getByRole('button', { name: 'Reorder Event logger' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByText(`Event logger is over position ${logger} of ${before.length}.`)).toBeAttached();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText(`Event logger is over position ${logger + 1} of ${before.length}.`)).toBeAttached();
  await page.keyboard.press('Space');
  await expect(page.getByText(`Moved Event logger to position ${logger + 1}.`)).toBeAttached();
  await expect.poll(() => orderOf(list)).toEqual(before);
  await expect(page.getByText('Order saved.')).toBeVisible();
  await expectNoViolations(page);

  // Moved again and reloaded, at phone width: the server kept it, the rows fit the screen.
  await page.setViewportSize(PHONE);
  await list.getByRole('button', { name: 'Move Event logger up' }).click();
  await expect(page.getByText('Order saved.')).toBeVisible();
  await page.reload();
  await expect.poll(() => orderOf(list)).toEqual(dragged);
  const box = await list.getByRole('button', { name: 'Move Event logger down' }).boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

test('import apps upgraded (the new version at once) and removed; a group’s list pages in the address, as cards on a phone', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const projectId = await seededProject(request);
  const { organization } = (await (
    await request.get(`/api/projects/${projectId}/`, { headers: apiHeaders() })
  ).json()) as { organization: string };
  const importApps = `/organizations/${organization}/pipeline/import-apps`;
  const install = (body: Record<string, unknown>) =>
    request.post(`/api/organizations/${organization}/pipeline_import_apps/`, { headers: apiHeaders(), data: body });
  // A second JSON lines importer of its own (the seeded one may be upgraded by now), and enough apps for two pages.
  const mine = (await (
    await install({ plugin_type: 'repository', url: 'https://github.com/analytics-plugins/jsonl-import', tag: '0.9.0' })
  ).json()) as { id: number; tag: string };
  for (let i = 0; i < 20; i += 1)
    expect((await install({ plugin_type: 'local', name: `Paged import ${i}` })).ok()).toBe(true);

  await signInWithDemoLink(page, `${importApps}/${mine.id}`);
  const header = page
    .locator('header')
    .filter({ has: page.getByRole('heading', { level: 1, name: 'JSON lines importer' }) });
  await expect(header).toContainText(mine.tag === '0.9.0' ? 'Update available: 1.0.0' : '1.0.0');
  if (mine.tag === '0.9.0') {
    await header.getByRole('button', { name: 'Upgrade…' }).click();
    await page
      .getByRole('alertdialog', { name: 'Upgrade JSON lines importer' })
      .getByRole('button', { name: 'Upgrade to 1.0.0' })
      .click();
    await expect(header).not.toContainText('Update available');
    await expect(header.getByText('1.0.0', { exact: true })).toBeVisible();
  }
  await header.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete JSON lines importer' })
    .getByRole('button', { name: 'Delete JSON lines importer' })
    .click();
  await expect(page).toHaveURL(new RegExp(`${importApps}$`));
  expect(
    (
      await request.get(`/api/organizations/${organization}/pipeline_import_apps/${mine.id}/`, {
        headers: apiHeaders(),
      })
    ).status(),
  ).toBe(404);

  // Page 2 of the list, in the address; Back returns to page 1.
  const table = page.getByRole('table', { name: 'Import apps' });
  await expect(table.getByRole('link', { name: 'CSV importer', exact: true })).toBeVisible();
  await page.getByRole('navigation', { name: 'Import apps pages' }).getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(table.getByRole('link', { name: 'Paged import 19' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'CSV importer', exact: true })).toHaveCount(0);
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(table.getByRole('link', { name: 'Paged import 19' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.goBack();
  await expect(table.getByRole('link', { name: 'CSV importer', exact: true })).toBeVisible();
});
