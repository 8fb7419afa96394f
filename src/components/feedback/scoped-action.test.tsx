import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { organizationEndpoints } from '@/contract/organizations';
import { renderApp } from '@/test-utils/render-app';
import { apiUrl, mockApi } from '../../../test/msw/handlers';
import { READ_ONLY_KEY } from '../../../test/msw/mock-api';
import { server, setupMockApi } from '../../../test/msw/server';

setupMockApi();

const MISSING = 'Your API key lacks the organization:write scope';

describe('a key without organization:write', () => {
  it('sees "New organization" disabled, with a tooltip naming the missing scope', async () => {
    mockApi().addKey(READ_ONLY_KEY, ['organization:read']);
    const { user } = renderApp('/organizations', { apiKey: READ_ONLY_KEY });
    const button = await screen.findByRole('button', { name: 'New organization' });
    expect(button).toBeDisabled();
    expect(button.parentElement).toHaveAccessibleDescription(MISSING);

    await user.hover(button.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(MISSING);
  });

  it('sees the settings read-only: Save changes and Delete organization disabled with the reason', async () => {
    mockApi().addKey(READ_ONLY_KEY, ['organization:read']);
    const organization = mockApi().organizations[0]!;
    const { user } = renderApp(`/organizations/${organization.id}`, { apiKey: READ_ONLY_KEY });
    expect(await screen.findByRole('button', { name: 'Save changes' })).toBeDisabled();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    const remove = screen.getByRole('button', { name: 'Delete organization' });
    expect(remove).toBeDisabled();

    remove.parentElement!.focus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(MISSING);
    await user.click(remove);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('is told which scope is missing when the server answers 403', async () => {
    // The key claims write access, but the server refuses: the 403 is explained the same way.
    mockApi().addKey(READ_ONLY_KEY, ['organization:write']);
    server.use(
      http.post(apiUrl(organizationEndpoints.create), () =>
        Response.json(
          {
            type: 'authentication_error',
            code: 'permission_denied',
            detail: "API key missing required scope 'organization:write'",
            attr: null,
          },
          { status: 403 },
        ),
      ),
    );
    const { user } = renderApp('/organizations?create=true', { apiKey: READ_ONLY_KEY });
    await user.type(await screen.findByLabelText('Name'), 'Initech');
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(`${MISSING}.`));
  });
});
