import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { organizationEndpoints } from '@/contract/organizations';
import { renderApp } from '@/test-utils/render-app';
import { apiUrl, mockApi, validationErrorResponse } from '../../../../test/msw/handlers';
import { DEMO_KEY } from '../../../../test/msw/mock-api';
import { server, setupMockApi } from '../../../../test/msw/server';

setupMockApi();

describe('organizations list', () => {
  it('lists the organizations in a table with their projects count', async () => {
    renderApp('/organizations', { apiKey: DEMO_KEY });
    const table = await screen.findByRole('table', { name: 'Organizations' });
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    const acmeRow = within(table).getByRole('link', { name: 'Acme Inc' }).closest('tr')!;
    const cells = within(acmeRow)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 4)).toEqual(['Acme Inc', 'acme-inc', '1', '1']);
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();
  });

  it('pages through the list with the page in the URL', async () => {
    for (let i = 0; i < 23; i += 1) mockApi().addOrganization({ name: `Team ${String(i).padStart(2, '0')}` });
    const { user } = renderApp('/organizations', { apiKey: DEMO_KEY });
    expect(await screen.findByText('1–20 of 25')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('21–25 of 25')).toBeInTheDocument();
    expect(window.location.search).toContain('page=2');
    expect(screen.getByRole('link', { name: 'Team 22' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows an empty state when there are no organizations', async () => {
    mockApi().organizations = [];
    renderApp('/organizations', { apiKey: DEMO_KEY });
    expect(await screen.findByRole('heading', { name: 'No organizations yet' })).toBeInTheDocument();
  });
});

describe('create organization', () => {
  it('creates an organization: the dialog closes and the list shows it without a reload', async () => {
    const { user } = renderApp('/organizations', { apiKey: DEMO_KEY });
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
    expect(mockApi().organizations.find((o) => o.name === 'Initech')?.enforce_2fa).toBe(true);
  });

  it('opens from a shared URL and closes with Cancel', async () => {
    const { user } = renderApp('/organizations?create=true', { apiKey: DEMO_KEY });
    const dialog = await screen.findByRole('dialog', { name: 'New organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.location.search).not.toContain('create');
  });

  it('checks the name before sending', async () => {
    const { user } = renderApp('/organizations?create=true', { apiKey: DEMO_KEY });
    const dialog = await screen.findByRole('dialog', { name: 'New organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Create organization' }));
    expect(await within(dialog).findByText('This field may not be blank.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('This field may not be blank.');
  });

  it('shows a server 400 on the field its attr names', async () => {
    server.use(
      http.post(apiUrl(organizationEndpoints.create), () =>
        validationErrorResponse('name', 'An organization with this name already exists.', 'unique'),
      ),
    );
    const { user } = renderApp('/organizations?create=true', { apiKey: DEMO_KEY });
    const dialog = await screen.findByRole('dialog', { name: 'New organization' });
    await user.type(within(dialog).getByLabelText('Name'), 'Acme Inc');
    await user.click(within(dialog).getByRole('button', { name: 'Create organization' }));
    const name = within(dialog).getByLabelText('Name');
    await waitFor(() => expect(name).toHaveAccessibleDescription('An organization with this name already exists.'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'New organization' })).toBeInTheDocument();
  });
});
