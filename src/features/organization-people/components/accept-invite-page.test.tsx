import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

describe('accept an invite', () => {
  it('needs the invited email, then makes the invitee a member and shows their key once', async () => {
    const invite = await api().call<{ id: string; accept_url: string }>(
      'POST',
      `/api/organizations/${api().organizationId(HEDGEBOX)}/invites/`,
      { target_email: 'zoe@new.example', level: 8 },
    );
    const { user } = renderApp(new URL(invite.accept_url).pathname + new URL(invite.accept_url).hash);
    await user.click(await screen.findByRole('button', { name: 'Join' }));
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription('Enter your first name.');
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(
      'Enter the email address the invite was sent to.',
    );
    await user.type(screen.getByRole('textbox', { name: 'First name' }), 'Zoe');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'someone@else.example');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(
        'This invite was sent to another email address.',
      ),
    );
    await user.clear(screen.getByRole('textbox', { name: 'Email' }));
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'zoe@new.example');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('heading', { name: 'Welcome to Hedgebox' })).toBeInTheDocument();
    expect(screen.getByText('You joined as admin.')).toBeInTheDocument();
    expect(screen.getByText(/^phx_/)).toBeInTheDocument();
    expect(api().store.users.getByEmail('zoe@new.example')?.first_name).toBe('Zoe');
  });

  it('says when the invite is gone', async () => {
    const { user } = renderApp('/invite/00000000-0000-4000-8000-000000000000#token=abcdefghijklmnopqrstuvwxyz012345');
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'X');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'x@new.example');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This invite link is not valid');
  });

  it('says a link without its secret is incomplete, and offers no form', async () => {
    renderApp('/invite/00000000-0000-4000-8000-000000000000');
    expect(await screen.findByRole('heading', { name: 'This invite link is incomplete' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join' })).not.toBeInTheDocument();
  });

  it('asks an existing account for its own API key, then joins with it', async () => {
    const northwind = api().organizationId('Northwind Analytics');
    const invite = await api().call<{ accept_url: string }>('POST', `/api/organizations/${northwind}/invites/`, {
      target_email: 'sofia@hedgebox.example',
      level: 1,
    });
    const sofia = api().store.users.getByEmail('sofia@hedgebox.example')!;
    const key = api().store.apiKeys.create(
      { user_id: sofia.id, label: 'own', scopes: ['*'], scoped_organizations: null },
      new Date().toISOString(),
    ).key;
    const { user } = renderApp(new URL(invite.accept_url).pathname + new URL(invite.accept_url).hash);
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'Sofía');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'sofia@hedgebox.example');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email address exists');
    await user.type(screen.getByLabelText('Your personal API key'), key);
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('heading', { name: 'Welcome to Northwind Analytics' })).toBeInTheDocument();
    expect(screen.getByText('Sign in with your own API key to open it.')).toBeInTheDocument();
  });
});
