import { expect, test, type Locator, type Page, type Request } from '@playwright/test';
import { apiHeaders, drag, expectNoViolations, seededProject, signInWithDemoLink, uniqueName } from './fixtures';

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
    try {
      out[key] = JSON.parse(raw);
    } catch {
      out[key] = raw;
    }
  }
  return out;
}

const number = (text: string | null) => Number((text ?? '').replace(/[,\s]/g, ''));

interface TrendSeries {
  aggregated_value?: number;
  count: number;
  compare_label?: string;
}

/** The page's next analysis request to `endpoint` (trend, retention, path) whose body passes `test`. */
function nextQuery(page: Page, endpoint: string, test: (body: Record<string, unknown>) => boolean): Promise<Request> {
  return page.waitForRequest(
    (r) =>
      r.method() === 'POST' &&
      r.url().endsWith(`/insights/${endpoint}/`) &&
      test(r.postDataJSON() as Record<string, unknown>),
  );
}

/** The ids of the events of the builder's URL, in order. */
const eventIds = (page: Page) => ((paramsOf(page).events ?? []) as Array<{ id: unknown }>).map((e) => e.id);

test('build a trend: two series, a filter, a breakdown and compare; its numbers are the API’s; every display; reload, back and forward; save and reopen', async ({
  page,
  request,
}) => {
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
  await page
    .getByRole('option', { name: /user signed up/ })
    .first()
    .click();
  await expect(page.getByRole('button', { name: 'Series B event: user signed up' })).toBeVisible();

  // Drag series B above series A by its handle: the list, the URL and the query follow.
  const reordered = nextQuery(
    page,
    'trend',
    (body) => (body.events as Array<{ id: string }>)[0]?.id === 'user signed up',
  );
  await drag(
    page,
    page.getByRole('button', { name: 'Reorder series B' }),
    page.getByRole('button', { name: 'Reorder series A' }),
  );
  await expect(page.getByRole('button', { name: 'Series A event: user signed up' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Series B event: Pageview' })).toBeVisible();
  await expect.poll(() => eventIds(page)).toEqual(['user signed up', '$pageview']);
  expect((await reordered).postDataJSON().events.map((e: { id: string }) => e.id)).toEqual([
    'user signed up',
    '$pageview',
  ]);

  // A filter: the browser is Chrome.
  await page.getByRole('button', { name: 'Add filter to filters' }).click();
  await page
    .getByRole('listbox', { name: 'Event properties' })
    .getByRole('option', { name: /^Browser\s*\$browser/ })
    .click();
  await page.getByRole('button', { name: 'Filter 1 value: choose values' }).click();
  await page
    .getByRole('option', { name: /Chrome/ })
    .first()
    .click();
  await page.keyboard.press('Escape');

  // Broken down by operating system, compared to the previous period, last 30 days.
  await page.getByRole('button', { name: 'Breakdown by: Add breakdown' }).click();
  await page
    .getByRole('listbox', { name: 'Event properties' })
    .getByRole('option', { name: /^OS\s*\$os/ })
    .click();
  await page.getByRole('switch', { name: 'Compare to the previous period' }).click();
  await page.getByRole('combobox', { name: 'Date range' }).selectOption({ label: 'Last 30 days' });
  await page.getByRole('combobox', { name: 'Chart type' }).selectOption({ label: 'Table' });
  await expect(page).toHaveURL(/compare=true/);
  await expect(page).toHaveURL(/breakdown=%24os/);
  await expect(page).toHaveURL(/display=ActionsTable/);

  // The table's numbers are the API's for the same parameters.
  const result = await settled(page, 'New trend');
  const params = paramsOf(page);
  expect(params).toMatchObject({
    events: [{ id: 'user signed up' }, { id: '$pageview' }],
    compare: true,
    breakdown: '$os',
    date_from: '-30d',
  });
  const answer = await request.post(`/api/projects/${projectId}/insights/trend/`, { headers: headers(), data: params });
  expect(answer.status(), await answer.text()).toBe(200);
  const series = (await answer.json()).result as TrendSeries[];
  const expected = (label: string) =>
    series
      .filter((s) => s.compare_label === label)
      .map((s) => s.aggregated_value ?? s.count)
      .sort((a, b) => a - b);
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
    ['Line chart', 'ActionsLineGraph'],
    ['Cumulative line', 'ActionsLineGraphCumulative'],
    ['Area (stacked)', 'ActionsAreaGraph'],
    ['Pie', 'ActionsPie'],
    ['Bar chart (over time)', 'ActionsBar'],
    ['Bar by value', 'ActionsBarValue'],
    ['World map', 'WorldMap'],
    ['Number', 'BoldNumber'],
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
  // At its short_id, as the production service's addresses.
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/insights/[A-Za-z0-9]{8}/edit$`));
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(name);

  await page.goto(`/projects/${projectId}/insights?search=${encodeURIComponent(name)}`);
  await page.getByRole('table', { name: 'Insights' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('table', { name: `${name}: data` }).locator('tbody')).toHaveText(tableText ?? '');
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('combobox', { name: 'Chart type' })).toHaveValue('ActionsTable');
  await expect(page.getByRole('button', { name: 'Series A event: user signed up' })).toBeVisible();
  await settled(page, name);
  await expectNoViolations(page);
});

interface RetentionCohort {
  date: string;
  values: Array<{ count: number }>;
}
interface PathEdge {
  source: string;
  target: string;
  value: number;
}

/** A retention cell as the grid writes it: "1,234 (37.5%)" → its count and its percentage. */
function retentionCell(text: string | null): { count: number; percent: number } {
  const m = /^([\d,]+) \(([\d.]+)%\)$/.exec((text ?? '').trim());
  if (!m) throw new Error(`not a retention cell: ${text}`);
  return { count: number(m[1]!), percent: Number(m[2]) };
}

/** A percentage as the grid writes it (one decimal) is `exact` rounded: off by half a tenth at most. */
function expectRoundedPercent(shown: number, exact: number) {
  expect(Math.abs(shown - exact)).toBeLessThanOrEqual(0.05 + 1e-9);
}

test('a trend broken down by browser and OS at once: each row names its combination ("Chrome · Mac OS X") with the API’s number; the URL keeps both', async ({
  page,
  request,
}) => {
  const projectId = await seededProject(request);
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/trends`);
  await settled(page, 'New trend');
  await page.getByRole('button', { name: 'Breakdown by: Add breakdown' }).click();
  await page
    .getByRole('listbox', { name: 'Event properties' })
    .getByRole('option', { name: /^Browser\s*\$browser/ })
    .click();
  await page.getByRole('button', { name: 'Add breakdown' }).click();
  await page
    .getByRole('listbox', { name: 'Event properties' })
    .getByRole('option', { name: /^OS\s*\$os/ })
    .click();
  await page.getByRole('combobox', { name: 'Chart type' }).selectOption({ label: 'Table' });
  await expect(page).toHaveURL(/breakdowns=/);
  await expect(page.getByRole('button', { name: 'Breakdown 2 by: OS' })).toBeVisible();
  const result = await settled(page, 'New trend');
  const params = paramsOf(page);
  expect(params).toMatchObject({
    breakdowns: [
      { property: '$browser', type: 'event' },
      { property: '$os', type: 'event' },
    ],
  });
  const answer = await request.post(`/api/projects/${projectId}/insights/trend/`, { headers: headers(), data: params });
  expect(answer.status(), await answer.text()).toBe(200);
  const series = (await answer.json()).result as (TrendSeries & { label: string; breakdown_value: string[] })[];
  const first = series[0]!;
  expect(first.breakdown_value).toHaveLength(2);
  expect(first.label).toBe(first.breakdown_value.join(' · '));
  const row = result.getByRole('table', { name: 'New trend: data' }).locator('tbody tr', { hasText: first.label });
  await expect(row).toHaveCount(1);
  expect(number(await row.getByRole('cell').first().textContent())).toBe(first.aggregated_value ?? first.count);
});

test('the New insight menu opens the retention builder; its cohort grid shows the API’s counts and percentages; axe finds nothing', async ({
  page,
  request,
}) => {
  test.slow();
  const projectId = await seededProject(request);
  await signInWithDemoLink(page, `/projects/${projectId}/insights`);
  await page.getByRole('button', { name: 'New insight' }).click();
  await page.getByRole('navigation', { name: 'New insight' }).getByRole('link', { name: 'Retention' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New retention' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'New retention: chart' })).toBeVisible();
  await settled(page, 'New retention');
  const query = nextQuery(page, 'retention', (body) => body.period === 'Day');
  await page.getByRole('combobox', { name: 'Period' }).selectOption('Day');
  await expect(page).toHaveURL(/period=Day/);
  const result = await settled(page, 'New retention');

  // The API's answer for the parameters the page asked with (daily cohorts of pageviews).
  const params = (await query).postDataJSON() as Record<string, unknown>;
  expect(params).toMatchObject({
    period: 'Day',
    target_entity: { id: '$pageview' },
    returning_entity: { id: '$pageview' },
  });
  const answer = await request.post(`/api/projects/${projectId}/insights/retention/`, {
    headers: headers(),
    data: params,
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const cohorts = (await answer.json()).result as RetentionCohort[];
  const first = cohorts[0]!;
  expect(first.values.length).toBeGreaterThan(1);
  const [day0, day1] = first.values.map((v) => v.count) as [number, number];
  expect(day0).toBeGreaterThan(0);

  // The grid: a row per cohort and the average; the first cohort's day, its persons, who came back.
  const rows = result.getByRole('table', { name: 'New retention: data' }).locator('tbody tr');
  await expect(rows).toHaveCount(cohorts.length + 1);
  await expect(result.getByRole('columnheader', { name: 'Day 1', exact: true })).toBeVisible();
  const [y, m, d] = first.date.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await expect(rows.first().getByRole('rowheader')).toHaveText(day);
  const cells = rows.first().getByRole('cell');
  const period0 = retentionCell(await cells.nth(0).textContent());
  const period1 = retentionCell(await cells.nth(1).textContent());
  expect(period0).toEqual({ count: day0, percent: 100 });
  expect(period1.count).toBe(day1);
  expectRoundedPercent(period1.percent, (100 * day1) / day0);
  // The average's day 1: the cohorts' day-1 persons over their day-0 persons.
  const reached = cohorts.filter((c) => c.values.length > 1);
  const average =
    reached.reduce((sum, c) => sum + c.values[1]!.count, 0) / reached.reduce((sum, c) => sum + c.values[0]!.count, 0);
  const averageRow = rows.last();
  await expect(averageRow.getByRole('rowheader')).toHaveText('Average');
  expectRoundedPercent(
    Number((await averageRow.getByRole('cell').nth(1).textContent())?.replace('%', '')),
    100 * average,
  );
  await expectNoViolations(page);
});

/** A link of the Sankey: its stroke's opacity (0.3 resting; 0.6 on the hovered path, 0.08 off it). */
const opacities = (links: Locator) => links.evaluateAll((paths) => paths.map((p) => p.getAttribute('stroke-opacity')));

test('the paths builder draws its Sankey with the API’s links and counts, follows its step limit, and hovering a link or tabbing to a step lights its paths; axe finds nothing', async ({
  page,
  request,
}) => {
  test.slow();
  const projectId = await seededProject(request);
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/paths`);
  await expect(page.getByRole('heading', { level: 1, name: 'New paths' })).toBeVisible();
  const figure = page.getByRole('figure', { name: 'New paths: chart' });
  await expect(figure).toBeVisible();
  await settled(page, 'New paths');
  const query = nextQuery(page, 'path', (body) => body.step_limit === 3);
  await page.getByRole('spinbutton', { name: 'Steps' }).fill('3');
  await expect(page).toHaveURL(/step_limit=3/);
  await settled(page, 'New paths');

  // The API's answer for the parameters the page asked with.
  const params = (await query).postDataJSON() as Record<string, unknown>;
  const answer = await request.post(`/api/projects/${projectId}/insights/path/`, { headers: headers(), data: params });
  expect(answer.status(), await answer.text()).toBe(200);
  const edges = (await answer.json()).result as PathEdge[];
  // The diagram draws the largest links (40 at most, the UI says so when it leaves some out).
  const drawable = edges.filter((e) => e.value > 0 && e.source !== e.target).sort((a, b) => b.value - a.value);
  const drawn = drawable.slice(0, 40);
  expect(drawn.length).toBeGreaterThan(1);
  const links = figure.locator('path[data-path-link]');
  await expect(links).toHaveCount(drawn.length);
  if (edges.length > drawn.length)
    await expect(
      figure.getByText(`The ${drawn.length} largest of ${edges.length.toLocaleString('en-US')} links`),
    ).toBeVisible();
  const item = (node: string) => node.replace(/^\d+_/, '');
  // A tooltip names each node with its step: the same page at two steps is two nodes.
  const stepped = (node: string) => `${item(node)} (step ${/^\d+/.exec(node)![0]})`;
  const linkText = (e: PathEdge) => `${stepped(e.source)} → ${stepped(e.target)}: ${e.value.toLocaleString('en-US')}`;
  expect((await links.locator('title').allTextContents()).sort()).toEqual(drawn.map(linkText).sort());

  // Each step shows the persons through it, from all the API's links (drawn or not): the most of
  // its links in or out. The test checks every node against the answer.
  const top = drawn[0]!;
  const sum = (list: PathEdge[]) => list.reduce((n, e) => n + e.value, 0);
  const through = (name: string) =>
    Math.max(sum(drawable.filter((e) => e.target === name)), sum(drawable.filter((e) => e.source === name)));
  const nodes = [...new Set(drawn.flatMap((e) => [e.source, e.target]))];
  expect((await figure.locator('g > title').allTextContents()).filter((t) => !t.includes('→')).sort()).toEqual(
    nodes.map((name) => `${stepped(name)}: ${through(name).toLocaleString('en-US')}`).sort(),
  );
  const node = figure.locator('g', {
    has: page.locator(
      `xpath=./*[local-name()="title" and text()="${stepped(top.source)}: ${through(top.source).toLocaleString('en-US')}"]`,
    ),
  });
  await expect(node.locator('text')).toHaveText(new RegExp(`\\(${through(top.source).toLocaleString('en-US')}\\)$`));

  // No step's label sits on a link's count: each stands right of its bars, the last step's too.
  const clashes = await figure.evaluate((el) => {
    const boxes = (selector: string) => [...el.querySelectorAll(selector)].map((t) => t.getBoundingClientRect());
    const counts = boxes('text[data-link-count]');
    return boxes('text[data-step-label]').flatMap((a) =>
      counts.filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom).map(() => a),
    );
  });
  expect(clashes).toHaveLength(0);

  // Pointing at the largest link names it and lights every path through it, dimming the others.
  const link = links.filter({ has: page.locator('title', { hasText: linkText(top) }) });
  const point = await link.evaluate((el: SVGPathElement) => {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const length = el.getTotalLength();
    for (const at of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]) {
      const p = el.getPointAtLength(length * at).matrixTransform(el.getScreenCTM()!);
      if (document.elementFromPoint(p.x, p.y) === el) return { x: p.x, y: p.y };
    }
    return null;
  });
  if (!point) throw new Error('the largest link is covered everywhere');
  const before = await link.boundingBox();
  await page.mouse.move(point.x, point.y);
  await expect(page.getByText(`${linkText(top)} persons`, { exact: true })).toBeVisible();
  // Naming the link does not move the diagram from under the pointer (it would leave the link).
  expect(await link.boundingBox()).toEqual(before);
  await expect(link).toHaveAttribute('stroke-opacity', '0.6');
  // Lit: the link, every drawn link on the way to its source and every one on from its target.
  const lit = new Set<PathEdge>([top]);
  const walk = (from: string, forward: boolean) => {
    for (const e of drawn) {
      if ((forward ? e.source : e.target) !== from || lit.has(e)) continue;
      lit.add(e);
      walk(forward ? e.target : e.source, forward);
    }
  };
  walk(top.target, true);
  walk(top.source, false);
  expect(lit.size).toBeGreaterThan(1);
  expect(lit.size).toBeLessThan(drawn.length);
  await expect.poll(async () => (await opacities(links)).filter((o) => o === '0.6').length).toBe(lit.size);
  expect((await opacities(links)).filter((o) => o === '0.08').length).toBe(drawn.length - lit.size);
  // Pointing away leaves every link as it was.
  const idle = 'Point at or tap a step or a link, or Tab to a step, to follow its paths.';
  await page.mouse.move(0, 0);
  await expect(page.getByText(idle)).toBeVisible();
  expect(new Set(await opacities(links))).toEqual(new Set(['0.3']));

  // From the keyboard: Tab from the diagram's frame reaches its first step, which is named with
  // its persons and lights every path through it, as pointing does; Tab again moves on.
  await figure.getByRole('region', { name: 'Paths diagram (scrolls sideways)' }).focus();
  await page.keyboard.press('Tab');
  const focusedStep = page.locator('[data-path-step]:focus');
  await expect(focusedStep).toHaveCount(1);
  await expect(focusedStep.locator('[data-focus-ring]')).toHaveCount(1);
  const name = (await focusedStep.locator('title').textContent())!.replace(/: [\d,]+$/, '');
  const step = nodes.find((n) => stepped(n) === name)!;
  expect(step, name).toBeTruthy();
  const named = `${name}: ${through(step).toLocaleString('en-US')} person${through(step) === 1 ? '' : 's'}`;
  await expect(focusedStep).toHaveAttribute('aria-label', named);
  await expect(page.getByText(named, { exact: true })).toBeVisible();
  lit.clear();
  walk(step, true);
  walk(step, false);
  expect(lit.size).toBeGreaterThan(0);
  await expect.poll(async () => (await opacities(links)).filter((o) => o === '0.6').length).toBe(lit.size);
  await page.keyboard.press('Tab');
  await expect(page.locator('[data-path-step]:focus')).not.toHaveAttribute('aria-label', named);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByText(idle)).toBeVisible();
  expect(new Set(await opacities(links))).toEqual(new Set(['0.3']));
  await expectNoViolations(page);
});

test('Download PNG saves the chart as it looks: in the dark scheme, light marks on its dark background; Download CSV saves the table', async ({
  page,
  request,
}) => {
  const projectId = await seededProject(request);
  await page.emulateMedia({ colorScheme: 'dark' });
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/trends`);
  const result = await settled(page, 'New trend');

  const [png] = await Promise.all([
    page.waitForEvent('download'),
    result.getByRole('button', { name: 'Download PNG' }).click(),
  ]);
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

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    result.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe('New-trend.csv');
  const text = Buffer.concat(await (await csv.createReadStream()).toArray()).toString('utf8');
  const [header, ...rows] = text.trim().split('\r\n');
  expect(header).toMatch(/^Date,/);
  expect(rows.length).toBeGreaterThanOrEqual(7); // a row a day of the last 7 days
});

test('a trend’s x labels never overlap, the last one included, on a desktop, a laptop and a phone (hourly over ten days)', async ({
  page,
  request,
}) => {
  const projectId = await seededProject(request);
  // A fixed range: 264 hourly points, whose last label fell on the one before it at 1440 and 1024 px.
  const search = new URLSearchParams({
    interval: JSON.stringify('hour'),
    date_from: JSON.stringify('2026-11-10'),
    date_to: JSON.stringify('2026-11-20'),
    compare: JSON.stringify(true),
  });
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/trends?${search}`);
  for (const [width, least] of [
    [1440, 3],
    [1024, 1],
    [390, 1],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await settled(page, 'New trend');
    const figure = page.getByRole('figure', { name: 'New trend: chart' });
    await expect.poll(() => figure.locator('text[data-x-label]').count()).toBeGreaterThanOrEqual(least);
    const { boxes, frame } = await figure.evaluate((el) => ({
      boxes: [...el.querySelectorAll('text[data-x-label]')]
        .map((t) => t.getBoundingClientRect())
        .map((r) => ({ left: r.left, right: r.right })),
      frame: (() => {
        const r = el.querySelector('svg')!.getBoundingClientRect();
        return { left: r.left, right: r.right };
      })(),
    }));
    for (let i = 1; i < boxes.length; i++)
      expect(boxes[i]!.left, `x label ${i + 1} overlaps the one before at ${width} px`).toBeGreaterThanOrEqual(
        boxes[i - 1]!.right,
      );
    expect(boxes[0]!.left).toBeGreaterThanOrEqual(frame.left - 1);
    expect(boxes.at(-1)!.right).toBeLessThanOrEqual(frame.right + 1);
  }
});
