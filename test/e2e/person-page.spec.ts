import { expect, test } from '@playwright/test';
import { expectNoViolations, seededProject, signInWithDemoLink } from './fixtures';

/** The seeded journey's first two steps (server/seed/events-sql.ts). */
const STEPS = ['$pageview', 'user signed up'] as const;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const [width, height, label] of [
  [1440, 900, 'desktop'],
  [390, 844, 'phone'],
] as const) {
  test(`a funnel's converted persons lead each to a person page with its properties and events (${label})`, async ({
    page,
    request,
  }) => {
    // The funnel runs on the seeded events; the margin is for a loaded machine.
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height });
    const projectId = await seededProject(request);
    const search = new URLSearchParams({
      events: JSON.stringify(STEPS.map((id, order) => ({ id, name: id, type: 'events', order }))),
      date_from: JSON.stringify('-30d'),
    });
    await signInWithDemoLink(page, `/projects/${projectId}/insights/new/funnels?${search}`);

    await page.getByRole('button', { name: /^Step 2: [\d,]+ converted$/ }).click();
    const panel = page.getByRole('dialog', { name: /^Persons who converted at step 2/ });
    const first = panel.getByRole('rowheader').first().getByRole('link');
    await expect(first).toBeVisible();
    const name = (await first.textContent())!.trim();
    await first.click();

    // The person's own address: shareable, and titled with its name.
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/persons/[0-9a-f-]{36}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${escape(name)} · `));
    await expect(
      page
        .getByRole('table', { name: `Properties of ${name}` })
        .getByRole('row')
        .nth(1),
    ).toBeVisible();
    const events = page.getByRole('table', { name: `Events of ${name}, newest first` });
    await expect(events.getByRole('row').nth(1)).toBeVisible();
    // How many there are, under the table.
    await expect(page.getByRole('navigation', { name: 'Events pages' })).toContainText(/^1–\d+ of \d+/);
    // Nothing needs a sideways scroll.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoViolations(page);

    // A reload of the address shows the same person.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(events.getByRole('row').nth(1)).toBeVisible();
  });
}
