import { expect, test } from '@playwright/test';
import { createKey, demoKey, revokeKeyByLabel, signInWithDemoLink } from './fixtures';

test('an invalid key is refused in words on the sign-in form', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('API key').fill('phx_thisKeyDoesNotExist0000000000000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(/invalid/i);
  await expect(page).toHaveURL(/\/sign-in/);
});

test('an unreachable server is explained on the sign-in form', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Server URL').fill('http://127.0.0.1:9');
  await page.getByLabel('API key').fill(demoKey());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(/reach/i);
});

test('a key revoked while in use lands on sign-in, and signing in again returns to the same page', async ({ page }) => {
  const label = `e2e-revoked-${Date.now()}`;
  const key = createKey('*', label);
  await page.goto('/sign-in');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();

  // Open an organization, then the key stops working.
  await page.getByRole('table').getByRole('link').first().click();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
  const orgUrl = new URL(page.url()).pathname;
  revokeKeyByLabel(label);

  await page.reload();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('API key').fill(demoKey());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${orgUrl}$`));
});

test('a key with read-only scopes sees write actions disabled, with the missing scope named', async ({ page }) => {
  const key = createKey('organization:read', `e2e-read-${Date.now()}`);
  await page.goto('/sign-in');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const create = page.getByRole('button', { name: 'New organization' });
  await expect(create).toBeDisabled();
  await create.hover({ force: true });
  await expect(page.getByRole('tooltip')).toContainText('organization:write');
});

test('an unknown address shows a not-found page with a way back', async ({ page }) => {
  await signInWithDemoLink(page);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
  await page.getByRole('link', { name: 'Go to organizations' }).click();
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();
});
