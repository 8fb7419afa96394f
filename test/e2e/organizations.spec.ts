import { expect, test } from '@playwright/test';
import { demoKey, signInWithDemoLink, uniqueName } from './fixtures';

test('an admin signs in with the demo link, creates, renames and deletes an organization, then signs out', async ({
  page,
}) => {
  await signInWithDemoLink(page);

  // The key never stays in the address bar.
  expect(page.url()).not.toContain('key=');
  await expect(page).toHaveURL(/\/organizations/);
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();

  // Create.
  const name = uniqueName('E2E Org');
  await page.getByRole('button', { name: 'New organization' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name })).toBeVisible();

  // Rename on the settings page.
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const renamed = `${name} renamed`;
  await page.getByLabel('Name', { exact: true }).fill(renamed);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();

  // The rename survives a reload: it is stored, not only shown.
  await page.reload();
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();

  // Delete behind a confirm dialog that names the organization.
  await page.getByRole('button', { name: 'Delete organization' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete organization' });
  await expect(confirm).toContainText(renamed);
  const deleteButton = confirm.getByRole('button', { name: 'Delete', exact: true });
  await expect(deleteButton).toBeDisabled();
  await confirm.getByLabel(`Type ${renamed} to confirm`).fill(renamed);
  await deleteButton.click();
  await expect(page).toHaveURL(/\/organizations\/?(\?.*)?$/);
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();
  await expect(page.getByRole('link', { name: renamed })).toHaveCount(0);

  // Sign out forgets the key: the app asks to sign in again, even after a reload.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto('/organizations');
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('a blank name is refused on the field and the dialog keeps what was typed', async ({ page }) => {
  await signInWithDemoLink(page, '/organizations');
  await page.getByRole('button', { name: 'New organization' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('   ');
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(dialog.getByText('This field may not be blank.')).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toBeVisible();
  // The field cannot take more than the server accepts.
  await dialog.getByLabel('Name').fill('x'.repeat(80));
  await expect(dialog.getByLabel('Name')).toHaveValue('x'.repeat(64));
});

test('the list paginates on the server and the page is in the URL', async ({ page, request }) => {
  // Enough organizations for two pages of ten, created through the API.
  const headers = { authorization: `Bearer ${demoKey()}` };
  const existing = await (await request.get('/api/organizations/', { headers })).json();
  for (let i = existing.count; i < 12; i++) {
    const created = await request.post('/api/organizations/', { headers, data: { name: uniqueName('Paged') } });
    expect(created.status()).toBe(201);
  }
  const total = (await (await request.get('/api/organizations/', { headers })).json()).count as number;

  await signInWithDemoLink(page, '/organizations?pageSize=10');
  const rows = page.getByRole('table', { name: 'Organizations' }).getByRole('row');
  await expect(rows).toHaveCount(11); // header + ten organizations
  await expect(page.getByText(`1–10 of ${total}`)).toBeVisible();
  const firstOnPageOne = await rows.nth(1).getByRole('link').first().textContent();

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(`11–${Math.min(20, total)} of ${total}`)).toBeVisible();
  await expect(rows.nth(1).getByRole('link').first()).not.toHaveText(firstOnPageOne ?? '');

  // A shared URL opens the same page.
  await page.reload();
  await expect(page.getByText(`11–${Math.min(20, total)} of ${total}`)).toBeVisible();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText(`1–10 of ${total}`)).toBeVisible();
});
