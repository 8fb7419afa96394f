import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { organizationEndpoints } from '@/contract/organizations';
import { renderApp } from '@/test-utils/render-app';
import { apiUrl, mockApi, validationErrorResponse } from '../../../../test/msw/handlers';
import { DEMO_KEY } from '../../../../test/msw/mock-api';
import { server, setupMockApi } from '../../../../test/msw/server';

setupMockApi();

function acme() {
  return mockApi().organizations.find((organization) => organization.name === 'Acme Inc')!;
}

describe('organization settings', () => {
  it('shows the organization with its read-only fields and projects', async () => {
    const organization = acme();
    renderApp(`/organizations/${organization.id}`, { apiKey: DEMO_KEY });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Inc' })).toBeInTheDocument();
    expect(screen.getByText(organization.id)).toBeInTheDocument();
    expect(screen.getByText('Owner')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Default project' })).toHaveAttribute(
      'href',
      `/projects/${organization.teams[0]!.id}`,
    );
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Organizations' })).toBeInTheDocument();
    expect(within(breadcrumb).getByText('Acme Inc')).toHaveAttribute('aria-current', 'page');
  });

  it('renames the organization: Save changes is enabled once something changed, and the new name shows everywhere', async () => {
    const { user } = renderApp(`/organizations/${acme().id}`, { apiKey: DEMO_KEY });
    const save = await screen.findByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();

    const name = screen.getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Acme Corporation');
    expect(save).toBeEnabled();
    await user.click(save);

    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Corporation' })).toBeInTheDocument();
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByText('Acme Corporation')).toBeInTheDocument();
    expect(mockApi().organizations.map((o) => o.name)).toContain('Acme Corporation');
  });

  it('turns on 2FA enforcement', async () => {
    const { user } = renderApp(`/organizations/${acme().id}`, { apiKey: DEMO_KEY });
    await user.click(await screen.findByRole('checkbox', { name: 'Enforce two-factor authentication' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(acme().enforce_2fa).toBe(true));
    expect(screen.getByRole('checkbox', { name: 'Enforce two-factor authentication' })).toBeChecked();
  });

  it('shows a server 400 on the Name field', async () => {
    server.use(
      http.patch(apiUrl(organizationEndpoints.update), () =>
        validationErrorResponse('name', 'Ensure this field has no more than 64 characters.', 'max_length'),
      ),
    );
    const { user } = renderApp(`/organizations/${acme().id}`, { apiKey: DEMO_KEY });
    const name = await screen.findByLabelText('Name');
    await user.type(name, ' again');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(name).toHaveAccessibleDescription('Ensure this field has no more than 64 characters.'));
  });

  it('deletes only after the name is typed, then returns to the list without it', async () => {
    const organization = acme();
    const { user } = renderApp(`/organizations/${organization.id}`, { apiKey: DEMO_KEY });
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Delete organization' });
    expect(dialog).toHaveTextContent('Acme Inc');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type Acme Inc to confirm'), 'Acme');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type Acme Inc to confirm'), ' Inc');
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    expect(await screen.findByRole('heading', { level: 1, name: 'Organizations' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/organizations');
    expect(await screen.findByText(/Organization “Acme Inc” deleted/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Acme Inc' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Globex' })).toBeInTheDocument();
    expect(mockApi().organization(organization.id)).toBeUndefined();
  });

  it('shows a 404 in words for an organization that does not exist', async () => {
    renderApp('/organizations/00000000-0000-4000-8000-000000000000', { apiKey: DEMO_KEY });
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
