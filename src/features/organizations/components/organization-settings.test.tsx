import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, mswServer, NORTHWIND, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

const stored = (id: string) =>
  api().store.db.prepare('SELECT name, enforce_2fa FROM organizations WHERE id = ?').get(id) as
    { name: string; enforce_2fa: number } | undefined;

describe('organization settings', () => {
  it('shows the organization with its read-only fields and projects', async () => {
    const id = api().organizationId(HEDGEBOX);
    renderApp(`/organizations/${id}`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: HEDGEBOX })).toBeInTheDocument();
    expect(screen.getByText(id)).toBeInTheDocument();
    expect(screen.getByText('Owner')).toBeInTheDocument();
    const project = api().store.db.prepare("SELECT id FROM projects WHERE name = 'Hedgebox Web'").get() as {
      id: number;
    };
    expect(screen.getByRole('link', { name: 'Hedgebox Web' })).toHaveAttribute('href', `/projects/${project.id}`);
    expect(screen.getByRole('link', { name: 'Hedgebox Mobile' })).toBeInTheDocument();
    const breadcrumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Organizations' })).toBeInTheDocument();
    expect(within(breadcrumb).getByText(HEDGEBOX)).toHaveAttribute('aria-current', 'page');
  });

  it('renames the organization: Save changes is enabled once something changed, and the new name shows everywhere', async () => {
    const id = api().organizationId(HEDGEBOX);
    const { user } = renderApp(`/organizations/${id}`, { apiKey: api().demoKey });
    const save = await screen.findByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();

    const name = screen.getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Hedgebox Corporation');
    expect(save).toBeEnabled();
    await user.click(save);

    expect(await screen.findByRole('heading', { level: 1, name: 'Hedgebox Corporation' })).toBeInTheDocument();
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    const breadcrumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByText('Hedgebox Corporation')).toBeInTheDocument();
    expect(stored(id)?.name).toBe('Hedgebox Corporation');
  });

  it('asks before leaving with changes not saved: Stay keeps them, Leave without saving goes', async () => {
    const id = api().organizationId(HEDGEBOX);
    const { user, router } = renderApp(`/organizations/${id}`, { apiKey: api().demoKey });
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Hedgebox Draft');
    void router.navigate({ to: `/organizations/${id}/members` });
    let confirm = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(confirm).toHaveTextContent("Your changes to the organization's settings are not saved.");
    await user.click(within(confirm).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe(`/organizations/${id}`);
    expect(screen.getByLabelText('Name')).toHaveValue('Hedgebox Draft');

    void router.navigate({ to: `/organizations/${id}/members` });
    confirm = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(confirm).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organizations/${id}/members`));
    expect(stored(id)?.name).toBe(HEDGEBOX);
  });

  it('turns on 2FA enforcement', async () => {
    const id = api().organizationId(HEDGEBOX);
    const { user } = renderApp(`/organizations/${id}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('checkbox', { name: 'Enforce two-factor authentication' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(stored(id)?.enforce_2fa).toBe(1));
    expect(screen.getByRole('checkbox', { name: 'Enforce two-factor authentication' })).toBeChecked();
  });

  it('shows a server 400 on the Name field', async () => {
    const id = api().organizationId(HEDGEBOX);
    const { user } = renderApp(`/organizations/${id}`, { apiKey: api().demoKey });
    const name = await screen.findByLabelText('Name');
    // 64 characters pass the field's maxLength, one more is pasted past it: the server has the last word.
    await user.clear(name);
    name.removeAttribute('maxlength');
    await user.type(name, 'x'.repeat(65));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(/64 characters/);
    expect(stored(id)?.name).toBe(HEDGEBOX);
  });

  it('deletes only after the name is typed, then returns to the list without it (an edit not saved does not hold it back)', async () => {
    const id = api().organizationId(HEDGEBOX);
    const { user } = renderApp(`/organizations/${id}`, { apiKey: api().demoKey });
    await user.type(await screen.findByLabelText('Name'), ' draft');
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Delete organization' });
    expect(dialog).toHaveTextContent(HEDGEBOX);
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    const typed = within(dialog).getByLabelText(`Type ${HEDGEBOX} to confirm`);
    await user.type(typed, 'Hedge');
    expect(confirm).toBeDisabled();
    await user.type(typed, 'box');
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    expect(await screen.findByRole('heading', { level: 1, name: 'Organizations' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/organizations');
    expect(screen.queryByRole('alertdialog', { name: 'Leave without saving?' })).toBeNull();
    expect(await screen.findByText(`Organization “${HEDGEBOX}” deleted`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: HEDGEBOX })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: NORTHWIND })).toBeInTheDocument();
    expect(stored(id)).toBeUndefined();
  });

  it('offers Delete organization to owners only: an admin sees it disabled with the reason', async () => {
    // The demo user is an admin, not the owner, of Northwind (the server answers an admin's delete 403).
    const id = api().organizationId(NORTHWIND);
    const { user } = renderApp(`/organizations/${id}`, { apiKey: api().demoKey });
    const remove = await screen.findByRole('button', { name: 'Delete organization' });
    expect(remove).toBeDisabled();
    expect(remove.parentElement).toHaveAccessibleDescription('Only owners can delete an organization.');
    await user.hover(remove.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Only owners can delete an organization.');
    await user.click(remove);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(stored(id)).toBeDefined();
  });

  it('an address whose id is not an organization id is a 404 at once, without asking the server', async () => {
    const asked: string[] = [];
    mswServer.events.on('request:start', ({ request }) => void asked.push(new URL(request.url).pathname));
    renderApp('/organizations/not-an-id', { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(asked.filter((path) => path.includes('not-an-id'))).toEqual([]);
  });

  it('shows a 404 in words for an organization that does not exist', async () => {
    renderApp('/organizations/00000000-0000-4000-8000-000000000000', { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
