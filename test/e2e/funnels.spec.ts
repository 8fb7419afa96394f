import { expect, test, type Page } from '@playwright/test';
import { apiHeaders, drag, expectNoViolations, seededProject, signInWithDemoLink } from './fixtures';

const headers = apiHeaders;

/** The seeded journey (server/seed/events-sql.ts): browse, sign up, create a project, buy. */
const STEPS = ['$pageview', 'user signed up', 'created project', 'purchase'] as const;
/** How the pickers name them. */
const LABELS: Record<string, string> = { $pageview: 'Pageview' };
const label = (event: string) => LABELS[event] ?? event;

/** Picks the event of step `n` (1-based) in its picker: type the name, Enter. */
async function pickStepEvent(page: Page, n: number, event: string) {
  await page.getByRole('button', { name: new RegExp(`^Step ${n} event: `) }).click();
  await page.getByRole('combobox', { name: 'Search events' }).fill(event);
  await page
    .getByRole('option', { name: label(event), exact: false })
    .first()
    .click();
  await expect(page.getByRole('button', { name: `Step ${n} event: ${label(event)}` })).toBeVisible();
}

/** The ids of the steps' events in the builder's URL, in order. */
const urlSteps = (page: Page) =>
  (JSON.parse(new URL(page.url()).searchParams.get('events') ?? '[]') as Array<{ id: string }>).map((e) => e.id);

interface Step {
  count: number;
}

test('build a four-step funnel, change its order and window; its counts are the API’s; the persons who dropped off open in a panel', async ({
  page,
  request,
}) => {
  // Every step added and every option changed recomputes the funnel on the 1,000,000 seeded events.
  test.setTimeout(150_000);
  const projectId = await seededProject(request);
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/funnels`);

  // Four steps from the seeded events (the builder starts with the first two).
  await expect(page.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveCount(2);
  await pickStepEvent(page, 1, STEPS[0]);
  await pickStepEvent(page, 2, STEPS[1]);
  for (const n of [3, 4]) {
    await page.getByRole('button', { name: 'Add step' }).click();
    await pickStepEvent(page, n, STEPS[n - 1]!);
  }

  // Any order, within 7 days.
  await page.getByRole('combobox', { name: 'Step order' }).selectOption({ label: 'Any order' });
  const length = page.getByRole('spinbutton', { name: 'Conversion window length' });
  await length.fill('7');
  await page.getByRole('combobox', { name: 'Conversion window unit' }).selectOption({ label: 'days' });
  await expect(page).toHaveURL(/funnel_order_type=unordered/);
  await expect(page).toHaveURL(/funnel_window_interval=7/);

  // The chart's counts are what the API answers for the same parameters.
  const response = await request.post(`/api/projects/${projectId}/insights/funnel/`, {
    headers: headers(),
    data: {
      events: STEPS.map((id, order) => ({ id, name: id, type: 'events', order })),
      date_from: '-30d',
      funnel_window_interval: 7,
      funnel_window_interval_unit: 'day',
      funnel_order_type: 'unordered',
      funnel_viz_type: 'steps',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  const steps = (await response.json()).result as Step[];
  expect(steps).toHaveLength(4);
  expect(steps[3]!.count).toBeGreaterThan(0);
  const expectSteps = async () => {
    for (const [i, step] of steps.entries()) {
      await expect(
        page.getByRole('button', { name: `Step ${i + 1}: ${step.count.toLocaleString('en-US')} converted` }),
      ).toBeVisible();
    }
  };
  await expectSteps();
  await expectNoViolations(page);

  // A reload opens the same funnel: its steps, its order and window, its counts.
  await page.reload();
  await expect(page.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveCount(4);
  for (const [i, event] of STEPS.entries())
    await expect(page.getByRole('button', { name: `Step ${i + 1} event: ${label(event)}` })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Step order' })).toHaveValue('unordered');
  await expect(length).toHaveValue('7');
  await expect(page.getByRole('combobox', { name: 'Conversion window unit' })).toHaveValue('day');
  await expectSteps();

  // The persons who dropped off before step 2, in the side panel.
  const dropped = steps[0]!.count - steps[1]!.count;
  const opener = page.getByRole('button', { name: `Step 2: ${dropped.toLocaleString('en-US')} dropped off` });
  await opener.click();
  const panel = page.getByRole('dialog', { name: /^Persons who dropped off before step 2/ });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('table')).toBeVisible();
  await expect(panel.getByRole('rowheader')).toHaveCount(Math.min(dropped, 25));
  await expectNoViolations(page);
  if (dropped > 25) {
    await panel.getByRole('button', { name: 'Next' }).click();
    await expect(panel.getByText(/^Persons 26–/)).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(opener).toBeFocused();

  // Drag step 4 above step 3 by its handle: the list, the URL and the query follow.
  const reordered = page.waitForRequest(
    (r) =>
      r.method() === 'POST' && r.url().endsWith('/insights/funnel/') && r.postDataJSON().events?.[2]?.id === STEPS[3],
  );
  await drag(
    page,
    page.getByRole('button', { name: 'Reorder step 4' }),
    page.getByRole('button', { name: 'Reorder step 3' }),
  );
  await expect(page.getByRole('button', { name: `Step 3 event: ${label(STEPS[3])}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Step 4 event: ${label(STEPS[2])}` })).toBeVisible();
  const swapped = [STEPS[0], STEPS[1], STEPS[3], STEPS[2]];
  await expect.poll(() => urlSteps(page)).toEqual(swapped);
  expect(((await reordered).postDataJSON().events as Array<{ id: string }>).map((e) => e.id)).toEqual(swapped);
});

test('the correlation table lists events that raise or lower conversion, in words', async ({ page, request }) => {
  const projectId = await seededProject(request);
  await signInWithDemoLink(page, `/projects/${projectId}/insights/new/funnels`);
  const section = page.getByRole('region', { name: 'Correlation analysis' });
  await section.getByRole('button', { name: 'Show correlations' }).click();
  const table = section.getByRole('table', { name: 'Events that raise or lower conversion' });
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('cell', { name: /× (more|less) likely to convert$/ }).first()).toBeVisible();
  await expectNoViolations(page);
});
