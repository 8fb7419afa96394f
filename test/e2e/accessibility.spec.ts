import { expect, test } from '@playwright/test';
import { expectNoViolations, signInWithDemoLink } from './fixtures';

test('sign-in page', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectNoViolations(page);
});

test('organizations list, create dialog, settings, project overview and 404', async ({ page }) => {
  await signInWithDemoLink(page, '/organizations');
  await expect(page.getByRole('table')).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'New organization' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.getByRole('table').getByRole('link').first().click();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'Delete organization' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Delete organization' })).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');

  const projectLink = page.getByRole('main').locator('a[href*="/projects/"]').first();
  await projectLink.click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoViolations(page);

  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
  await expectNoViolations(page);
});
