import { expect, test, type Page } from '@playwright/test';
import { apiHeaders, expectNoViolations, seededProject, signInWithDemoLink, uniqueName } from './fixtures';

const headers = apiHeaders;

/** The builder's result once it shows the controls' parameters (nothing dimmed or loading). */
async function settled(page: Page, title: string) {
  const result = page.getByRole('region', { name: 'Result' });
  const table = result.getByRole('table', { name: `${title}: data` });
  await expect(table).toBeVisible();
  await expect(result.locator('[aria-busy="true"]', { has: table })).toHaveCount(0);
  return result;
}

/** The builder's parameters as the URL holds them (TanStack Router's search: JSON values). */
function paramsOf(page: Page): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of new URL(page.url()).searchParams) {
    try { out[key] = JSON.parse(raw); } catch { out[key] = raw; }
  }
  return out;
}

const number = (text: string | null) => Number((text ?? '').replace(/[,\s]/g, ''));

interface TrendSeries { aggregated_value?: number; count: number; compare_label?: string }

test('build a trend: two series, a filter, a breakdown and compare; its numbers are the API’s; every display; reload, back and forward; save and reopen', async ({ page, request }) => {
  // Many steps, each a query over the seeded events: a long test.
  test.setTimeout(240_000);
  const projectId = await seededProject(request);
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/trends`);
  await expect(page.getByRole('heading', { level: 1, name: 'New trend' })).toBeVisible();
  await settled(page, 'New trend');
  await expectNoViolations(page);

  // Series B: signups.
  await page.getByRole('button', { name: 'Add series' }).click();
  await page.getByRole('button', { name: /^Series B event: / }).click();
  await page.getByRole('combobox', { name: 'Search events' }).fill('user signed up');
  await page.getByRole('option', { name: /user signed up/ }).first().click();
  await expect(page.getByRole('button', { name: 'Series B event: user signed up' })).toBeVisible();

  // A filter: the browser is Chrome.
  await page.getByRole('button', { name: 'Add filter to filters' }).click();
  await page.getByRole('listbox', { name: 'Event properties' }).getByRole('option', { name: /^Browser\s*\$browser/ }).click();
  await page.getByRole('button', { name: 'Filter 1 value: choose values' }).click();
  await page.getByRole('option', { name: /Chrome/ }).first().click();
  await page.keyboard.press('Escape');

  // Broken down by operating system, compared to the previous period, last 30 days.
  await page.getByRole('button', { name: 'Breakdown by: Add breakdown' }).click();
  await page.getByRole('listbox', { name: 'Event properties' }).getByRole('option', { name: /^OS\s*\$os/ }).click();
  await page.getByRole('switch', { name: 'Compare to the previous period' }).click();
  await page.getByRole('combobox', { name: 'Date range' }).selectOption({ label: 'Last 30 days' });
  await page.getByRole('combobox', { name: 'Chart type' }).selectOption({ label: 'Table' });
  await expect(page).toHaveURL(/compare=true/);
  await expect(page).toHaveURL(/breakdown=%24os/);
  await expect(page).toHaveURL(/display=ActionsTable/);

  // The table's numbers are the API's for the same parameters.
  const result = await settled(page, 'New trend');
  const params = paramsOf(page);
  expect(params).toMatchObject({ events: [{ id: '$pageview' }, { id: 'user signed up' }], compare: true, breakdown: '$os', date_from: '-30d' });
  const answer = await request.post(`/api/projects/${projectId}/insights/trend/`, { headers: headers(), data: params });
  expect(answer.status(), await answer.text()).toBe(200);
  const series = (await answer.json()).result as TrendSeries[];
  const expected = (label: string) => series.filter((s) => s.compare_label === label).map((s) => s.aggregated_value ?? s.count).sort((a, b) => a - b);
  const table = result.getByRole('table', { name: 'New trend: data' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(expected('current').length);
  const shown = { current: [] as number[], previous: [] as number[] };
  for (const row of await rows.all()) {
    const cells = row.getByRole('cell');
    shown.current.push(number(await cells.nth(0).textContent()));
    shown.previous.push(number(await cells.nth(1).textContent()));
  }
  expect(shown.current.sort((a, b) => a - b)).toEqual(expected('current'));
  expect(shown.previous.sort((a, b) => a - b)).toEqual(expected('previous'));
  expect(expected('current').some((n) => n > 0)).toBe(true);
  const tableText = await table.locator('tbody').textContent();

  // Every display draws (or tables) the same query without an error.
  const displays = [
    ['Line chart', 'ActionsLineGraph'], ['Cumulative line', 'ActionsLineGraphCumulative'], ['Pie', 'ActionsPie'],
    ['Bar chart (over time)', 'ActionsBar'], ['Bar by value', 'ActionsBarValue'], ['World map', 'WorldMap'], ['Number', 'BoldNumber'],
    ['Table', 'ActionsTable'],
  ] as const;
  for (const [label, value] of displays) {
    await page.getByRole('combobox', { name: 'Chart type' }).selectOption({ label });
    await expect(page).toHaveURL(new RegExp(`display=${value}(&|$)`));
    await settled(page, 'New trend');
    if (label !== 'Table') await expect(result.getByRole('figure', { name: 'New trend: chart' })).toBeVisible();
    await expect(result.getByRole('alert')).toHaveCount(0);
  }

  // A reload opens exactly this chart.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Chart type' })).toHaveValue('ActionsTable');
  await settled(page, 'New trend');
  await expect(page.getByRole('table', { name: 'New trend: data' }).locator('tbody')).toHaveText(tableText ?? '');

  // Back and forward step through the edits.
  await page.goBack();
  await expect(page.getByRole('combobox', { name: 'Chart type' })).toHaveValue('BoldNumber');
  await page.goBack();
  await expect(page.getByRole('combobox', { name: 'Chart type' })).toHaveValue('WorldMap');
  await page.goForward();
  await page.goForward();
  await expect(page.getByRole('combobox', { name: 'Chart type' })).toHaveValue('ActionsTable');
  await settled(page, 'New trend');

  // Save; reopen it from the list.
  const name = uniqueName('E2E trend');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Save insight' });
  await expectNoViolations(page);
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(`Saved “${name}”`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/insights/\\d+/edit$`));
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(name);

  await page.goto(`/projects/${projectId}/insights?search=${encodeURIComponent(name)}`);
  await page.getByRole('table', { name: 'Insights' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('table', { name: `${name}: data` }).locator('tbody')).toHaveText(tableText ?? '');
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('combobox', { name: 'Chart type' })).toHaveValue('ActionsTable');
  await expect(page.getByRole('button', { name: 'Series B event: user signed up' })).toBeVisible();
  await settled(page, name);
  await expectNoViolations(page);
});

test('the New insight menu opens the retention builder; its chart draws; axe finds nothing', async ({ page, request }) => {
  test.slow();
  const projectId = await seededProject(request);
  await signInWithDemoLink(page, `/projects/${projectId}/insights`);
  await page.getByRole('button', { name: 'New insight' }).click();
  await page.getByRole('navigation', { name: 'New insight' }).getByRole('link', { name: 'Retention' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New retention' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'New retention: chart' })).toBeVisible();
  await settled(page, 'New retention');
  await page.getByRole('combobox', { name: 'Period' }).selectOption('Day');
  await expect(page).toHaveURL(/period=Day/);
  await settled(page, 'New retention');
  await expectNoViolations(page);
});

test('the paths builder draws its Sankey and follows its step limit; axe finds nothing', async ({ page, request }) => {
  test.slow();
  const projectId = await seededProject(request);
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/paths`);
  await expect(page.getByRole('heading', { level: 1, name: 'New paths' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'New paths: chart' })).toBeVisible();
  await settled(page, 'New paths');
  await page.getByRole('spinbutton', { name: 'Steps' }).fill('3');
  await expect(page).toHaveURL(/step_limit=3/);
  await settled(page, 'New paths');
  await expectNoViolations(page);
});

test('Download PNG saves the chart as it looks: in the dark scheme, light marks on its dark background; Download CSV saves the table', async ({ page, request }) => {
  const projectId = await seededProject(request);
  await page.emulateMedia({ colorScheme: 'dark' });
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/trends`);
  const result = await settled(page, 'New trend');

  const [png] = await Promise.all([page.waitForEvent('download'), result.getByRole('button', { name: 'Download PNG' }).click()]);
  expect(png.suggestedFilename()).toBe('New-trend.png');
  const bytes = await (await png.createReadStream()).toArray();
  const dataUrl = `data:image/png;base64,${Buffer.concat(bytes).toString('base64')}`;
  // Read the image's pixels in the browser: the corner is the figure's dark background, and the
  // axis labels and the line make light pixels on it.
  const pixels = await page.evaluate(async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, image.height).data;
    const luminance = (i: number) => 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
    let light = 0;
    for (let i = 0; i < data.length; i += 4) if (luminance(i) > 150) light += 1;
    return { width: image.width, corner: luminance((4 * image.width + 4) * 4), light };
  }, dataUrl);
  expect(pixels.width).toBeGreaterThan(600);
  expect(pixels.corner).toBeLessThan(60);
  expect(pixels.light).toBeGreaterThan(500);

  const [csv] = await Promise.all([page.waitForEvent('download'), result.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe('New-trend.csv');
  const text = Buffer.concat(await (await csv.createReadStream()).toArray()).toString('utf8');
  const [header, ...rows] = text.trim().split('\r\n');
  expect(header).toMatch(/^Date,/);
  expect(rows.length).toBeGreaterThanOrEqual(7); // a row a day of the last 7 days
});
