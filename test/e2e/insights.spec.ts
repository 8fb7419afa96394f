import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiHeaders, expectNoViolations, seededProject, signInWithDemoLink, uniqueName } from './fixtures';

const headers = apiHeaders;

/** A trends insight of its own for each test: daily pageviews, as a line. */
async function createInsight(request: APIRequestContext, projectId: number, name: string) {
  const response = await request.post(`/api/projects/${projectId}/insights/`, {
    headers: headers(),
    data: {
      name,
      saved: true,
      tags: ['e2e'],
      filters: {
        insight: 'TRENDS',
        events: [{ id: '$pageview', type: 'events' }],
        date_from: '-30d',
        interval: 'day',
        display: 'ActionsLineGraph',
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; name: string };
}

/** The chart's drawing (not its legend's icons), once a series' line is painted in it. */
const chart = (page: Page) => page.locator('figure[data-insight-chart] svg[role="img"]:has(path[data-series])');

test('find an insight, favorite it, rename it, share it; the shared link works without a key until it is replaced', async ({
  page,
  browser,
  request,
}) => {
  const projectId = await seededProject(request);
  const name = uniqueName('E2E insight');
  await createInsight(request, projectId, name);

  // The list: search (in the URL), favorite.
  await signInWithDemoLink(page, `/projects/${projectId}/insights`);
  await expect(page.getByRole('table', { name: 'Insights' })).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole('searchbox', { name: 'Search insights' }).fill(name);
  await expect(page).toHaveURL(/search=E2E/);
  const table = page.getByRole('table', { name: 'Insights' });
  await expect(table.getByRole('link')).toHaveCount(1);
  const star = page.getByRole('button', { name: `Favorite ${name}` });
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByRole('button', { name: `Favorite ${name}` })).toHaveAttribute('aria-pressed', 'true');

  // The page: the chart paints, rename in place.
  await table.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(chart(page)).toBeVisible();
  await expect(page.getByRole('table', { name: `${name}: data` })).toBeVisible();
  await expectNoViolations(page);
  const renamed = `${name} renamed`;
  await page.getByRole('button', { name: 'Edit name' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(renamed);
  await page.getByRole('textbox', { name: 'Name' }).press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();

  // Share it.
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: `Share “${renamed}”` });
  await dialog.getByRole('switch', { name: 'Share with a link' }).click();
  const linkBox = dialog.getByRole('textbox', { name: 'Link' });
  await expect(linkBox).toHaveValue(/\/shared\/[A-Za-z0-9_-]{32}$/);
  await expectNoViolations(page);
  const firstLink = await linkBox.inputValue();

  // A fresh browser without a key sees the chart.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(firstLink);
  await expect(strangerPage.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expect(chart(strangerPage)).toBeVisible();
  await expect(strangerPage.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await expectNoViolations(strangerPage);

  // Replace the link (behind a confirm): the old one fails at once, the new one works.
  await dialog.getByRole('button', { name: 'New link' }).click();
  await page
    .getByRole('alertdialog', { name: 'Replace the link?' })
    .getByRole('button', { name: 'Replace link' })
    .click();
  await expect(linkBox).not.toHaveValue(firstLink);
  const secondLink = await linkBox.inputValue();
  await strangerPage.goto(firstLink);
  await expect(strangerPage.getByRole('heading', { name: 'This link is not valid any more' })).toBeVisible();
  await expectNoViolations(strangerPage);
  await strangerPage.goto(secondLink);
  await expect(strangerPage.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await stranger.close();
});

test('an insight deleted from its page shows as deleted when the reader goes back to it, and Restore brings it back', async ({
  page,
  request,
}) => {
  const projectId = await seededProject(request);
  const name = uniqueName('E2E back after delete');
  const created = await createInsight(request, projectId, name);
  const url = `/api/projects/${projectId}/insights/${created.id}/`;

  await signInWithDemoLink(page, `/projects/${projectId}/insights/${created.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(`Deleted “${name}”`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/insights(\\?|$)`));
  expect((await request.get(url, { headers: headers() })).status()).toBe(404);

  // Back: the page says it is deleted and offers only Restore (no rename that would fail).
  await page.goBack();
  await expect(page.getByRole('status').filter({ hasText: 'This insight is deleted' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit name' })).toBeDisabled();
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText(`Restored “${name}”`)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'This insight is deleted' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
  expect((await (await request.get(url, { headers: headers() })).json()).deleted).toBe(false);
});

test('from the keyboard, closing a dialog or an inline edit gives focus back to what opened it', async ({
  page,
  request,
}) => {
  const projectId = await seededProject(request);
  const name = uniqueName('E2E focus');
  const created = await createInsight(request, projectId, name);
  await signInWithDemoLink(page, `/projects/${projectId}/insights/${created.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  for (const [opener, opened] of [
    [page.getByRole('button', { name: 'Share' }), page.getByRole('dialog')],
    [page.getByRole('button', { name: 'Search and commands' }), page.getByRole('dialog')],
    [page.getByRole('button', { name: 'Edit name' }), page.getByRole('textbox', { name: 'Name' })],
  ] as const) {
    await opener.focus();
    await page.keyboard.press('Enter');
    await expect(opened).toBeVisible();
    // As a reader would: Escape once the dialog (or field) has taken focus.
    await expect.poll(() => opened.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(opened).toBeHidden();
    await expect(opener).toBeFocused();
  }
  // Saved with Enter, too.
  const edit = page.getByRole('button', { name: 'Edit name' });
  await edit.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: 'Name' }).fill(`${name} renamed`);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `${name} renamed` })).toBeVisible();
  await expect(edit).toBeFocused();

  await page.goto(`/projects/${projectId}/insights/new/trends`);
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect.poll(() => page.getByRole('dialog').evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(save).toBeFocused();
});

test('delete an insight from the list, then undo', async ({ page, request }) => {
  const projectId = await seededProject(request);
  const name = uniqueName('E2E delete');
  const created = await createInsight(request, projectId, name);

  await signInWithDemoLink(page, `/projects/${projectId}/insights?search=${encodeURIComponent(name)}`);
  const table = page.getByRole('table', { name: 'Insights' });
  await expect(table.getByRole('link', { name, exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(page.getByText(`Deleted “${name}”`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No insights match' })).toBeVisible();
  // Deleted: no longer served.
  expect(
    (await request.get(`/api/projects/${projectId}/insights/${created.id}/`, { headers: headers() })).status(),
  ).toBe(404);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('table', { name: 'Insights' }).getByRole('link', { name, exact: true })).toBeVisible();
  const restored = await (
    await request.get(`/api/projects/${projectId}/insights/${created.id}/`, { headers: headers() })
  ).json();
  expect(restored.deleted).toBe(false);
});
