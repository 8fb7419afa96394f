import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { personalApiKeyEndpoints } from '@/contract/personal-api-keys';
import { HEDGEBOX, renderApp, setupTestApi, slowDown } from '@testing';

const api = setupTestApi();

const MISSING = 'Your API key lacks the organization:write scope';

describe('a key without organization:write', () => {
  it('sees "New organization" disabled, with a tooltip naming the missing scope', async () => {
    const key = api().makeKey(['organization:read']);
    const { user } = renderApp('/organizations', { apiKey: key });
    const button = await screen.findByRole('button', { name: 'New organization' });
    expect(button).toBeDisabled();
    expect(button.parentElement).toHaveAccessibleDescription(MISSING);

    await user.hover(button.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(MISSING);
  });

  it('sees "New organization" enabled until the key\'s scopes arrive after the page, then disabled', async () => {
    slowDown(personalApiKeyEndpoints.current, 400);
    renderApp('/organizations', { apiKey: api().makeKey(['organization:read']) });
    expect(await screen.findByRole('button', { name: 'New organization' })).toBeEnabled();
    // ScopedAction wraps a disabled button anew: look it up again each time.
    await waitFor(() => expect(screen.getByRole('button', { name: 'New organization' })).toBeDisabled());
  });

  it('sees the settings read-only: Save changes and Delete organization disabled with the reason', async () => {
    const key = api().makeKey(['organization:read']);
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}`, { apiKey: key });
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
    // The dialog opened from a shared URL still submits; the server refuses and says which scope.
    const key = api().makeKey(['organization:read']);
    const { user } = renderApp('/organizations?create=true', { apiKey: key });
    await user.type(await screen.findByLabelText('Name'), 'Initech');
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(`${MISSING}.`));
  });
});
