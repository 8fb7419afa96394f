import { expect, test } from '@playwright/test';
import { expectNoViolations, signInWithDemoLink } from './fixtures';

test('sign-in page', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectNoViolations(page);
});

test('organizations list, create dialog, settings, project overview and 404', async ({ page }) => {
  // Six axe passes over full pages: each takes seconds on a busy 2-core machine.
  test.setTimeout(60_000);
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
  // The overview's charts and snippets, drawn, are checked too.
  await expect(page.getByRole('figure', { name: 'Events, last 30 days: chart' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Web (posthog-js) snippet' })).toBeVisible();
  await expectNoViolations(page);

  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
  await expectNoViolations(page);
});
