import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { organizationEndpoints } from '@/contract/organizations';
import { HEDGEBOX, NORTHWIND, override, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

describe('organizations list', () => {
  it('lists the organizations in a table with their members and projects count', async () => {
    renderApp('/organizations', { apiKey: api().demoKey });
    const table = await screen.findByRole('table', { name: 'Organizations' });
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    const row = within(table).getByRole('link', { name: HEDGEBOX }).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 4)).toEqual([HEDGEBOX, 'hedgebox', '5', '2']);
    expect(within(table).getByRole('link', { name: NORTHWIND })).toBeInTheDocument();
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();
  });

  it('pages through the list with the page in the URL', async () => {
    for (let i = 0; i < 23; i += 1)
      await api().call('POST', '/api/organizations/', { name: `Team ${String(i).padStart(2, '0')}` });
    const { user } = renderApp('/organizations', { apiKey: api().demoKey });
    expect(await screen.findByText('1–20 of 25')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('21–25 of 25')).toBeInTheDocument();
    expect(window.location.search).toContain('page=2');
    expect(screen.getAllByRole('row')).toHaveLength(6);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('says when the page in the URL is past the last one, with a way back', async () => {
    const { user } = renderApp('/organizations?page=4', { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { name: 'Nothing on this page' })).toBeInTheDocument();
    expect(screen.getByText(/There are 2 organizations, but page 4 is past the last one/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to the first page' }));
    expect(await screen.findByRole('link', { name: HEDGEBOX })).toBeInTheDocument();
    expect(window.location.search).not.toContain('page=');
  });

  it('keeps the header and says what went wrong when the list cannot be read', async () => {
    renderApp('/organizations', { apiKey: api().makeKey(['batch_export:read']) });
    expect(await screen.findByRole('heading', { level: 2, name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Organizations' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Your API key lacks the organization:read scope.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows an empty state when the key reaches no organization', async () => {
    const user = api().store.users.getByEmail('priya@hedgebox.example')!;
    const key = api().store.apiKeys.create(
      { user_id: user.id, label: 'no organizations', scopes: ['*'], scoped_organizations: [] },
      new Date().toISOString(),
    ).key;
    renderApp('/organizations', { apiKey: key });
    expect(await screen.findByRole('heading', { name: 'No organizations yet' })).toBeInTheDocument();
  });
});

describe('create organization', () => {
  it('creates an organization: the dialog closes and the list shows it without a reload', async () => {
    const { user } = renderApp('/organizations', { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'New organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'New organization' });
    expect(window.location.search).toContain('create=true');

    await user.type(within(dialog).getByLabelText('Name'), 'Initech');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Enforce two-factor authentication' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create organization' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('link', { name: 'Initech' })).toBeInTheDocument();
    expect(screen.getByText('1–3 of 3')).toBeInTheDocument();
    expect(await screen.findByText(/Organization “Initech” created/)).toBeInTheDocument();
    expect(window.location.search).not.toContain('create');
    const stored = api().store.db.prepare('SELECT enforce_2fa FROM organizations WHERE name = ?').get('Initech') as {
      enforce_2fa: number;
    };
    expect(stored.enforce_2fa).toBe(1);
  });

  it('opens from a shared URL and closes with Cancel', async () => {
    const { user } = renderApp('/organizations?create=true', { apiKey: api().demoKey });
    const dialog = await screen.findByRole('dialog', { name: 'New organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.location.search).not.toContain('create');
  });

  it('checks the name before sending', async () => {
    const { user } = renderApp('/organizations?create=true', { apiKey: api().demoKey });
    const dialog = await screen.findByRole('dialog', { name: 'New organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Create organization' }));
    expect(await within(dialog).findByText('This field may not be blank.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('This field may not be blank.');
  });

  it('shows a server 400 on the field its attr names', async () => {
    // The reference server accepts any valid name; a production instance may refuse one (e.g. taken).
    override(organizationEndpoints.create, () =>
      HttpResponse.json(
        {
          type: 'validation_error',
          code: 'unique',
          detail: 'An organization with this name already exists.',
          attr: 'name',
        },
        { status: 400 },
      ),
    );
    const { user } = renderApp('/organizations?create=true', { apiKey: api().demoKey });
    const dialog = await screen.findByRole('dialog', { name: 'New organization' });
    await user.type(within(dialog).getByLabelText('Name'), HEDGEBOX);
    await user.click(within(dialog).getByRole('button', { name: 'Create organization' }));
    const name = within(dialog).getByLabelText('Name');
    await waitFor(() => expect(name).toHaveAccessibleDescription('An organization with this name already exists.'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'New organization' })).toBeInTheDocument();
  });
});
