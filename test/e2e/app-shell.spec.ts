import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations, seededOrganization, signInWithDemoLink } from './fixtures';

/** What the page is painted with: <body>'s background colour. */
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('theme: light, dark or the system, from the keyboard; remembered and applied before the app runs', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  const org = await seededOrganization(page.request);
  await signInWithDemoLink(page, `/organizations/${org.id}`);
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
  const light = await background(page);

  // Native radios: arrow keys move the choice.
  await theme.getByRole('radio', { name: 'System' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(theme.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect.poll(() => background(page)).not.toBe(light);
  const dark = await background(page);
  await expectNoViolations(page);

  // Reloaded with the app's scripts refused: the page is already dark, so it never flashes light.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background(page)).toBe(dark);
  await page.unroute(/\/assets\/.*\.js$/);

  // "System" follows the system's setting as it changes.
  await signInWithDemoLink(page, '/organizations');
  await expect(theme.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await theme.getByRole('radio', { name: 'System' }).check();
  expect(await background(page)).toBe(light);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background(page)).toBe(dark);
  await theme.getByRole('radio', { name: 'Light' }).check();
  expect(await background(page)).toBe(light);

  // On a phone the choice is in the menu's drawer.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(theme).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer.getByRole('radio', { name: 'Light' })).toBeChecked();
  await drawer.getByRole('radio', { name: 'Dark' }).check();
  expect(await background(page)).toBe(dark);
});
