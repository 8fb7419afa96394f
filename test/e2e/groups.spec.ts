import { expect, test } from '@playwright/test';
import { seededProject, signInWithDemoLink } from './fixtures';

// A flow takes a few seconds on an idle machine; the margin is for a loaded CI runner.
test.describe.configure({ timeout: 60_000 });

test('groups: a trend of unique companies broken down by their plan, as the seeded demo has them', async ({ page }) => {
  const project = await seededProject(page.request);
  await signInWithDemoLink(page, `/projects/${project}/insights/new/trends`);
  await page.getByRole('combobox', { name: 'Aggregating by' }).selectOption({ label: 'company (groups)' });
  await page.getByRole('button', { name: 'Breakdown by: Add breakdown' }).click();
  await page
    .getByRole('group', { name: 'Whose properties' })
    .getByRole('button', { name: 'Company properties' })
    .click();
  await page.getByRole('listbox', { name: 'Company properties' }).getByRole('option', { name: 'plan' }).click();
  await page.getByRole('combobox', { name: 'Date range' }).selectOption({ label: 'Last 30 days' });
  await page.getByRole('combobox', { name: 'Chart type' }).selectOption({ label: 'Table' });
  await expect(page).toHaveURL(/aggregation_group_type_index=0/);
  await expect(page).toHaveURL(/breakdown_type=group/);
  await expect(page.getByRole('button', { name: 'Breakdown by: plan (company)' })).toBeVisible();

  // The seeded companies' plans label the rows; nothing failed.
  const table = page.getByRole('table', { name: 'New trend: data' });
  await expect(table.locator('tbody')).toContainText(/free|pro|enterprise/);
  await expect(page.getByRole('alert')).toHaveCount(0);
});
