import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  apiHeaders,
  expectNoViolations,
  seededOrganization,
  seededProject,
  signInWithDemoLink,
  uniqueName,
} from './fixtures';

/** A phone: the sidebar is a drawer, tables scroll inside their frame, the page never sideways. */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

interface Org {
  id: string;
  name: string;
}
let hedgebox: Org;
let exportName: string;

test.beforeAll(async ({ request }) => {
  hedgebox = await seededOrganization(request);
  // An export of this test's own (NoOp, so it runs here): the seeded ones stay as they are.
  exportName = uniqueName('Phone export');
  const created = await request.post(`/api/organizations/${hedgebox.id}/batch_exports/`, {
    headers: apiHeaders(),
    data: { name: exportName, destination: { type: 'NoOp', config: {} }, interval: 'day' },
  });
  expect(created.status(), await created.text()).toBe(201);
});

/** The page itself does not scroll sideways (tables scroll inside their frames). */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(width);
}

test.describe('at 390 × 844, light', () => {
  test.use({ viewport: PHONE, colorScheme: 'light' });

  test('the drawer navigates, an export is paused from the list, the page never scrolls sideways', async ({
    page,
    request,
  }) => {
    await signInWithDemoLink(page, '/organizations');
    await expect(page.getByRole('table', { name: /Organizations/ })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeHidden();
    await expectNoSidewaysScroll(page);

    // The menu button opens the sidebar as a drawer; picking an organization closes it.
    const menu = page.getByRole('button', { name: 'Open menu' });
    await menu.click();
    let drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('button', { name: /Organization:/ }).click();
    await drawer.getByRole('menuitem', { name: 'Hedgebox' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hedgebox' })).toBeVisible();
    await expect(drawer).toBeHidden();
    await expectNoSidewaysScroll(page);

    await menu.click();
    drawer = page.getByRole('dialog', { name: 'Menu' });
    await expectNoViolations(page);
    await drawer.getByRole('link', { name: 'Batch exports' }).click();
    await expect(drawer).toBeHidden();
    const table = page.getByRole('table', { name: 'Batch exports' });
    await expect(table).toBeVisible();
    await expectNoSidewaysScroll(page);

    // The export's name stays in view (its card's title) while its switch is scrolled to.
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: exportName }) });
    const toggle = row.getByRole('switch', { name: `Active: ${exportName}` });
    await toggle.scrollIntoViewIfNeeded();
    await expect(row.getByRole('link', { name: exportName })).toBeInViewport();
    await toggle.click();
    await expect(toggle).not.toBeChecked();
    await expect
      .poll(async () => {
        const list = await (
          await request.get(`/api/organizations/${hedgebox.id}/batch_exports/?limit=100`, { headers: apiHeaders() })
        ).json();
        return (list.results as { name: string; paused: boolean }[]).find((e) => e.name === exportName)?.paused;
      })
      .toBe(true);
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);
  });

  test('an organization named with 64 letters and no space: its invite page and delete dialog wrap the name, the page never scrolls sideways', async ({
    page,
    request,
  }) => {
    const name = `Hedgebox${'W'.repeat(56)}`;
    const created = await request.post('/api/organizations/', { headers: apiHeaders(), data: { name } });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = await created.json();

    await signInWithDemoLink(page, `/organizations/${id}/invites/new`);
    await expect(page.getByRole('heading', { level: 1, name: 'Invite people' })).toBeVisible();
    await expectNoSidewaysScroll(page);

    await page.goto(`/organizations/${id}`);
    await page.getByRole('button', { name: 'Delete organization' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete organization' });
    // The name to type is read in full, inside the dialog and the screen.
    const label = dialog.getByText(`Type ${name} to confirm`);
    await expect(label).toBeVisible();
    const box = (await label.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expectNoSidewaysScroll(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await request.delete(`/api/organizations/${id}/`, { headers: apiHeaders() });
  });

  test('an export’s logs read line by line: the message keeps a column wide enough, a row stays a row', async ({
    page,
    request,
  }) => {
    const list = await (
      await request.get(`/api/organizations/${hedgebox.id}/batch_exports/?limit=100`, { headers: apiHeaders() })
    ).json();
    let withLogs: string | null = null;
    for (const e of list.results as { id: string }[]) {
      const logs = await (
        await request.get(`/api/organizations/${hedgebox.id}/batch_exports/${e.id}/logs/`, { headers: apiHeaders() })
      ).json();
      if ((logs.results ?? []).length >= 3) {
        withLogs = e.id;
        break;
      }
    }
    expect(withLogs, 'a seeded export with logs').not.toBeNull();
    await signInWithDemoLink(page, `/organizations/${hedgebox.id}/batch-exports/${withLogs}?tab=logs`);
    const table = page.getByRole('table', { name: 'Log entries, newest first' });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const sizes = await table.evaluate((t) =>
      [...t.querySelectorAll('tbody tr')].map((r) => ({
        height: r.getBoundingClientRect().height,
        message: r.children[2]!.getBoundingClientRect().width,
      })),
    );
    for (const size of sizes) {
      expect(size.message).toBeGreaterThanOrEqual(250);
      expect(size.height).toBeLessThanOrEqual(160);
    }
    await expectNoSidewaysScroll(page);
  });

  test('list rows are cards: every row action is on the screen without scrolling sideways, in the page or in the table', async ({
    page,
    request,
  }) => {
    const projectId = await seededProject(request);
    /** The control is whole on the screen's width, and its table's frame does not scroll sideways. */
    const expectReachable = async (control: Locator) => {
      await control.scrollIntoViewIfNeeded();
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(
        await control.evaluate((el) => {
          const frame = el.closest('table')!.parentElement!;
          return frame.scrollWidth <= frame.clientWidth;
        }),
      ).toBe(true);
    };

    await signInWithDemoLink(page, `/organizations/${hedgebox.id}/members`);
    const members = page.getByRole('table', { name: /Members/ });
    const member = members.getByRole('row').filter({ hasText: 'Priya Raman' });
    await expectReachable(member.getByRole('combobox'));
    await expectReachable(member.getByRole('button', { name: /Remove/ }));
    // Each value is read under its column's name, and it is still a table to a screen reader.
    const email = member.getByRole('cell', { name: 'priya@hedgebox.example' });
    await expect(email).toBeVisible();
    expect(await email.evaluate((el) => getComputedStyle(el, '::before').content)).toContain('Email');
    await expect(members.getByRole('columnheader', { name: 'Email' })).toHaveCount(1);

    await page.goto(`/organizations/${hedgebox.id}/batch-exports`);
    const exports = page.getByRole('table', { name: 'Batch exports' });
    await expectReachable(exports.getByRole('switch', { name: `Active: ${exportName}` }));
    await expect(page.getByText('Select all', { exact: true })).toBeVisible();

    await page.goto(`/projects/${projectId}/insights`);
    const insights = page.getByRole('table', { name: /Insights/ });
    await expectReachable(insights.getByRole('button', { name: /^Delete / }).first());
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);
  });

  test('the trend builder keeps its chart in view: an edit far down the controls shows its effect without scrolling back up', async ({
    page,
    request,
  }) => {
    const projectId = await seededProject(request);
    await signInWithDemoLink(page, `/projects/${projectId}/insights/new/trends`);
    const chart = page.getByRole('figure', { name: /: chart$/ });
    await expect(chart).toBeInViewport();
    const compare = page.getByRole('switch', { name: 'Compare to the previous period' });
    await compare.scrollIntoViewIfNeeded();
    await compare.click();
    await expect(page).toHaveURL(/compare=true/);
    // The chart has not moved away: it is whole on the screen and draws the previous period.
    await expect(chart).toBeInViewport({ ratio: 1 });
    await expect(chart.getByText(/\(previous\)/).first()).toBeVisible();
    await expect(compare).toBeInViewport();
    await expectNoSidewaysScroll(page);
  });

  test('names without spaces (an insight, a funnel step) wrap or end in "…", the breadcrumb’s way up included: the page never scrolls sideways', async ({
    page,
    request,
  }) => {
    const projectId = await seededProject(request);
    const name = uniqueName('Supercalifragilisticexpialidocious_conversion_path_analysis_for_enterprise');
    const step = 'Signed_up_for_the_product_after_seeing_the_pricing_page_twice';
    const created = await request.post(`/api/projects/${projectId}/insights/`, {
      headers: apiHeaders(),
      data: {
        name,
        description: 'Line one\nLine two',
        filters: {
          insight: 'FUNNELS',
          events: [
            { id: '$pageview', type: 'events', order: 0, custom_name: step },
            { id: 'user signed up', type: 'events', order: 1 },
          ],
          date_from: '-30d',
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = await created.json();

    await signInWithDemoLink(page, `/projects/${projectId}/insights/${id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('figure').getByText(step)).toBeVisible();
    // The description keeps its line break.
    expect(await page.getByText('Line one').evaluate((el) => (el as HTMLElement).innerText)).toBe('Line one\nLine two');
    // The breadcrumb's way up keeps its word; the long name is the crumb cut short.
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(
      await crumbs
        .getByRole('link', { name: 'Insights' })
        .evaluate((el) => el.closest('span')!.scrollWidth > el.closest('span')!.clientWidth),
    ).toBe(false);
    // Only the page itself is the current one (an ancestor's link is active too, but not the page).
    await expect(crumbs.locator('[aria-current="page"]')).toHaveCount(1);
    expect(
      await crumbs
        .locator('[aria-current="page"]')
        .evaluate((el) => el.parentElement!.scrollWidth > el.parentElement!.clientWidth),
    ).toBe(true);
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByRole('dialog')).toBeInViewport();
    await expectNoSidewaysScroll(page);
    await page.keyboard.press('Escape');

    await page.goto(`/projects/${projectId}/insights`);
    await expect(page.getByRole('navigation', { name: 'Recently viewed' }).getByRole('link', { name })).toBeVisible();
    await expectNoSidewaysScroll(page);

    await page.goto(`/projects/${projectId}/insights/${id}/edit`);
    await expect(page.getByText(step, { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });
});

test('between a phone and a wide desktop (800 px) a deep page’s breadcrumbs stay in their place, clear of the header’s buttons', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 800, height: 700 });
  const plugins = await (
    await request.get(`/api/organizations/${hedgebox.id}/pipeline_destinations/?limit=100`, { headers: apiHeaders() })
  ).json();
  const source = (plugins.results as { id: number; plugin_type: string }[]).find((p) => p.plugin_type === 'source')!;
  await signInWithDemoLink(page, `/organizations/${hedgebox.id}/pipeline/destinations/${source.id}/source`);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Source');
  const fit = await crumbs.evaluate((nav) => {
    const buttons = [...nav.closest('header')!.querySelectorAll('button')].map((b) => b.getBoundingClientRect().left);
    return {
      inside: nav.scrollWidth <= nav.clientWidth,
      clear: nav.getBoundingClientRect().right <= Math.min(...buttons),
    };
  });
  expect(fit).toEqual({ inside: true, clear: true });
});

test('a window widened past 768 px gets the sidebar beside the page (an open drawer closes), and loses it again when narrowed', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signInWithDemoLink(page, `/organizations/${hedgebox.id}/batch-exports`);
  await expect(page.getByRole('table', { name: 'Batch exports' })).toBeVisible();
  // On a phone the sidebar is not in the page at all (the drawer has its own copy).
  const aside = page.locator('aside[aria-label="Sidebar"]');
  await expect(aside).toHaveCount(0);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();

  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar.getByRole('link', { name: 'Members' })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: /Organization: Hedgebox/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveCount(0);
  // Nothing of the drawer is left behind: the page scrolls and takes clicks.
  await sidebar.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();

  await page.setViewportSize(PHONE);
  await expect(aside).toHaveCount(0);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Batch exports' })).toBeVisible();
});

test('a reload comes back to where the reader had scrolled; a fresh load opens at the top', async ({ page }) => {
  // Short enough that the exports list scrolls.
  await page.setViewportSize({ width: PHONE.width, height: 420 });
  const list = `/organizations/${hedgebox.id}/batch-exports?pageSize=100`;
  await signInWithDemoLink(page, list);
  const table = page.getByRole('table', { name: 'Batch exports' });
  await expect(table.getByRole('link', { name: exportName })).toBeVisible();
  const room = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  expect(room, 'the list is taller than the window').toBeGreaterThan(150);
  // At the scroll event the router notes what scrolled (its listener comes first); it reads the
  // position when the page goes.
  const bottom = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        window.addEventListener('scroll', () => resolve(window.scrollY), { once: true });
        window.scrollTo(0, document.documentElement.scrollHeight);
      }),
  );
  expect(bottom).toBe(room);
  await page.reload();
  await expect(table.getByRole('link', { name: exportName })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(bottom);

  await page.goto('about:blank');
  await page.goto(list);
  await expect(table.getByRole('link', { name: exportName })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test.describe('at 390 × 844, dark', () => {
  test.use({ viewport: PHONE, colorScheme: 'dark' });

  test('the command palette finds an export by name and opens it', async ({ page }) => {
    await signInWithDemoLink(page, '/organizations');
    await page.getByRole('button', { name: 'Search and commands' }).click();
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill(exportName.slice(0, 12));
    await palette.getByRole('option', { name: new RegExp(exportName) }).click();
    await expect(page.getByRole('heading', { level: 1, name: exportName })).toBeVisible();
    await expect(palette).toBeHidden();
    await expectNoSidewaysScroll(page);
    // The keyboard way: Ctrl+K, type, Enter.
    await page.keyboard.press('Control+k');
    await expect(palette).toBeVisible();
    await page.keyboard.type('Northwind');
    await expect(palette.getByRole('option', { name: 'Northwind Analytics', exact: true })).toBeVisible();
    await expectNoViolations(page);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Northwind Analytics' })).toBeVisible();
    await expectNoViolations(page);
  });
});

test.describe('at 390 × 844, by touch', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('a tap on a link of the paths diagram follows its path (nothing hovers on a touch screen)', async ({
    page,
    request,
  }) => {
    // The seeded paths insight's page (the builder's diagram is the same component).
    const projectId = await seededProject(request);
    const insights = await (
      await request.get(`/api/projects/${projectId}/insights/?limit=100`, { headers: apiHeaders() })
    ).json();
    const paths = (insights.results as { id: number; filters: { insight?: string } }[]).find(
      (i) => i.filters.insight === 'PATHS',
    );
    expect(paths, 'the seed has a paths insight').toBeTruthy();
    await signInWithDemoLink(page, `/projects/${projectId}/insights/${paths!.id}`);
    const figure = page.getByRole('figure', { name: /: chart$/ });
    await expect(figure.getByText('Scroll the diagram sideways to see every step.')).toBeVisible();
    const link = figure.locator('[data-path-link]').first();
    await expect(link).toBeVisible();
    await link.scrollIntoViewIfNeeded();
    // A point on the link: where its band starts, in the page's coordinates.
    const start = /^M([\d.]+),([\d.]+)/.exec((await link.getAttribute('d')) ?? '');
    const svg = await figure.locator('svg').first().boundingBox();
    expect(start && svg).toBeTruthy();
    await page.touchscreen.tap(svg!.x + Number(start![1]) + 4, svg!.y + Number(start![2]));
    await expect(figure.getByText(/ → .*persons$/)).toBeVisible();
    await expect(link).toHaveAttribute('stroke-opacity', '0.6');
  });
});

test.describe('at 1440 × 900', () => {
  test.use({ viewport: DESKTOP });

  test("nothing is cut off: the retention table, the paths diagram, a destination's logs and its metrics axis fit their columns", async ({
    page,
    request,
  }) => {
    const projectId = await seededProject(request);
    const insights = (
      await (await request.get(`/api/projects/${projectId}/insights/?limit=100`, { headers: apiHeaders() })).json()
    ).results as { id: number; filters: { insight?: string } }[];
    const destinations = (
      await (
        await request.get(`/api/organizations/${hedgebox.id}/pipeline_destinations/?limit=100`, {
          headers: apiHeaders(),
        })
      ).json()
    ).results as { id: number; name: string }[];
    const retention = insights.find((i) => i.filters.insight === 'RETENTION')!;
    const paths = insights.find((i) => i.filters.insight === 'PATHS')!;
    const webhook = destinations.find((d) => d.name === 'Webhook')!;
    /** Boxes in the page's main part that scroll sideways (visually hidden text aside). */
    const cutOff = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter(
            (el) =>
              !el.classList.contains('sr-only') &&
              getComputedStyle(el).overflowX !== 'visible' &&
              el.scrollWidth > el.clientWidth + 1,
          )
          .map((el) => el.outerHTML.slice(0, 80)),
      );

    await signInWithDemoLink(page, `/projects/${projectId}/insights/${retention.id}`);
    await expect(page.getByRole('table', { name: /data/ })).toBeVisible();
    expect(await cutOff()).toEqual([]);
    await page.goto(`/projects/${projectId}/insights/${paths.id}`);
    await expect(page.getByRole('figure', { name: /chart/ }).locator('svg').first()).toBeVisible();
    expect(await cutOff()).toEqual([]);

    await page.goto(`/organizations/${hedgebox.id}/pipeline/destinations/${webhook.id}`);
    await expect(page.getByRole('table', { name: 'Log entries, newest first' })).toBeVisible();
    const axis = page.getByRole('img', { name: /^Events per hour over the last 24 hours/ });
    await expect(axis).toBeVisible();
    expect(await cutOff()).toEqual([]);
    // The time axis' labels do not run into each other.
    const boxes = await axis.locator('text').evaluateAll((texts) =>
      texts
        .map((t) => t.getBoundingClientRect())
        .filter((r) => r.top > 0)
        .map((r) => ({ left: r.left, right: r.right, top: Math.round(r.top) })),
    );
    const bottomRow = boxes
      .filter((b) => b.top === Math.max(...boxes.map((x) => x.top)))
      .sort((a, b) => a.left - b.left);
    expect(bottomRow.length).toBeGreaterThan(2);
    for (let i = 1; i < bottomRow.length; i += 1) expect(bottomRow[i]!.left).toBeGreaterThan(bottomRow[i - 1]!.right);
  });

  test('axe finds nothing on the exports list with the palette open (light) and the shortcuts dialog (dark)', async ({
    page,
  }) => {
    // Four axe passes over a full page: each takes seconds on a busy 2-core machine.
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: 'light' });
    await signInWithDemoLink(page, `/organizations/${hedgebox.id}/batch-exports`);
    await expect(page.getByRole('table', { name: 'Batch exports' })).toBeVisible();
    await expectNoViolations(page);
    await page.keyboard.press('Control+k');
    await expect(
      page.getByRole('dialog', { name: 'Command palette' }).getByRole('option', { name: /Hourly export check/ }),
    ).toBeVisible();
    await expectNoViolations(page);
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoViolations(page);
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expectNoViolations(page);
  });
});
