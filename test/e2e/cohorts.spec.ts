import { expect, test } from '@playwright/test';
import { expectNoViolations, seededProject, signInWithDemoLink, uniqueName } from './fixtures';

// A flow takes a few seconds on an idle machine; the margin is for a loaded CI runner.
test.describe.configure({ timeout: 60_000 });

test('cohorts: a dynamic cohort from a person property, its persons, then a trend filtered by it', async ({ page }) => {
  const project = await seededProject(page.request);
  await signInWithDemoLink(page, `/projects/${project}/cohorts`);
  await page.getByRole('navigation').getByRole('link', { name: 'Cohorts' }).first().click();
  await page.getByRole('button', { name: 'New cohort' }).click();
  const name = uniqueName('Paying');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Criterion 1: property' }).fill('plan');
  await page.getByRole('textbox', { name: 'Criterion 1: value' }).fill('pro');
  await page.getByRole('button', { name: 'Save cohort' }).click();

  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText(/^\d[\d,]* persons?$/)).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: `Persons of ${name}` })
      .getByRole('row')
      .nth(1),
  ).toBeVisible();
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  await expectNoViolations(page);

  // The trends builder filters by it: the cohort is offered beside the properties.
  await page.goto(`/projects/${project}/insights/new/trends`);
  await page
    .getByRole('button', { name: /Add filter/ })
    .first()
    .click();
  await page.getByRole('group', { name: 'Whose properties' }).getByRole('button', { name: 'Cohorts' }).click();
  await page.getByRole('listbox', { name: 'Cohorts' }).getByRole('option', { name }).click();
  await expect(page.getByRole('button', { name: `Filter 1 property: Cohort: ${name}` })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Filter 1 operator' })).toHaveValue('in');
});
