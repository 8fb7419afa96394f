import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiHeaders, expectNoViolations, seededOrganization, signInWithDemoLink, workerServer } from './fixtures';

const stamp = Date.now().toString(36);
// Each flow takes 5–10 s on an idle machine; the margin is for a loaded CI runner.
test.describe.configure({ timeout: 60_000 });

/** axe on the page without toasts (a toast sliding in is mid-fade: its text fails color-contrast). */
async function axeClean(page: Page): Promise<void> {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await expectNoViolations(page);
}

const hedgeboxId = async (page: Page) => (await seededOrganization(page.request)).id;

/** The accept link of the newest outbox email to `email` (the data dir's mail/ folder). */
function acceptLinkFor(email: string): string {
  const outbox = join(workerServer().dataDir, 'mail');
  const mail = readdirSync(outbox)
    .sort()
    .reverse()
    .map((f) => readFileSync(join(outbox, f), 'utf8'))
    .find((m) => m.includes(`To: ${email}`));
  const link = mail && /(https?:\/\/\S+\/invite\/[\w-]+#token=\w+)/.exec(mail)?.[1];
  if (!link) throw new Error(`no invite email to ${email} in ${outbox}`);
  return link;
}

test('members: change a level; the forbidden cases say why', async ({ page }) => {
  const org = await hedgeboxId(page);
  await signInWithDemoLink(page, `/organizations/${org}/members`);
  const own = page.getByRole('combobox', { name: 'Level of Demo Admin' });
  await expect(own).toBeDisabled();
  await expect(page.getByText("You can't change your own access level.")).toBeVisible();
  await axeClean(page);
  await page.getByRole('combobox', { name: "Level of Liam O'Brien" }).selectOption('Admin');
  await expect(page.getByText("Liam O'Brien is now admin")).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search members by name or email' }).fill('raman');
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page).toHaveURL(/search=raman/);
});

test('members from the keyboard: focus stays on a level while it saves, and a confirmed removal leaves it on the page heading', async ({
  page,
}) => {
  const org = await hedgeboxId(page);
  await signInWithDemoLink(page, `/organizations/${org}/members`);
  const level = page.getByRole('combobox', { name: 'Level of Marcus Chen' });
  await level.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText('Marcus Chen is now admin')).toBeVisible();
  await expect(level).toBeFocused();
  await expect(level).toHaveValue('8');

  const remove = page.getByRole('row', { name: /sofia@hedgebox\.example/ }).getByRole('button', { name: 'Remove' });
  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Remove Sofía García' });
  await dialog.getByRole('button', { name: 'Remove Sofía García' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /sofia@hedgebox\.example/ })).toHaveCount(0);
  // The row (and its button) is gone: focus is on the page's heading, not lost to the page.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});

test('invites: three at once, one bad email fixed, then accepted through the emailed link', async ({
  page,
  browser,
}) => {
  const org = await hedgeboxId(page);
  await signInWithDemoLink(page, `/organizations/${org}/invites`);
  await expect(page.getByRole('cell', { name: 'old.hire@hedgebox.example', exact: true })).toBeVisible();
  await axeClean(page);
  await page.getByRole('button', { name: 'Invite people' }).click();
  const emails = [`ada-${stamp}@people.example`, `bad-email-${stamp}`, `cy-${stamp}@people.example`];
  await page.getByRole('button', { name: 'Add row' }).click();
  await page.getByRole('button', { name: 'Add row' }).click();
  for (const [i, email] of emails.entries()) await page.getByRole('textbox', { name: `Email ${i + 1}` }).fill(email);
  await page.getByRole('textbox', { name: 'Name 1' }).fill('Ada');
  await page.getByRole('button', { name: 'Send invites' }).click();
  await expect(page.getByText('Enter a valid email address.')).toBeVisible();
  await axeClean(page);
  await page.getByRole('textbox', { name: 'Email 2' }).fill(`bo-${stamp}@people.example`);
  await page.getByRole('button', { name: 'Send invites' }).click();
  await expect(page.getByRole('cell', { name: emails[0], exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: `bo-${stamp}@people.example`, exact: true })).toBeVisible();

  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(acceptLinkFor(emails[0]!));
  await invitee.getByRole('textbox', { name: 'First name' }).fill('Ada');
  await invitee.getByRole('textbox', { name: 'Email' }).fill(emails[0]!);
  await axeClean(invitee);
  await invitee.getByRole('button', { name: 'Join' }).click();
  await expect(invitee.getByRole('heading', { name: 'Welcome to Hedgebox' })).toBeVisible();
  await invitee.getByRole('button', { name: 'Open Hedgebox' }).click();
  await expect(invitee).toHaveURL(new RegExp(`/organizations/${org}$`));
  await context.close();
  const members = await page.request.get(`/api/organizations/${org}/members/?search=${emails[0]}`, {
    headers: apiHeaders(),
  });
  expect((await members.json()).count).toBe(1);

  await page.reload();
  await expect(page.getByRole('cell', { name: emails[0], exact: true })).toHaveCount(0);
});

test('domains: add, publish the TXT record, verify, enable JIT', async ({ page }) => {
  const org = await hedgeboxId(page);
  const domain = `e2e-${stamp}.example`;
  await signInWithDemoLink(page, `/organizations/${org}/domains`);
  await expect(page.getByRole('link', { name: 'hedgebox.example', exact: true })).toBeVisible();
  await axeClean(page);
  await page.getByRole('textbox', { name: 'Domain' }).fill(domain);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(domain);
  const jit = page.getByRole('switch', { name: 'Automatic provisioning' });
  await expect(jit).toBeDisabled();

  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Not verified yet' })).toBeVisible();
  const challenge = await page.locator('dd code').nth(1).textContent();
  writeFileSync(workerServer().dnsRecords, JSON.stringify({ [`_posthog-challenge.${domain}`]: [challenge] }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(/^Verified on/)).toBeVisible();
  await jit.click();
  await expect(jit).toBeChecked();
  await page.reload();
  await expect(jit).toBeChecked();
  await axeClean(page);
});
