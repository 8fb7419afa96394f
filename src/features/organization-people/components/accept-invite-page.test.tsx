import { screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

describe('accept an invite', () => {
  it('needs the invited email, then makes the invitee a member and shows their key once', async () => {
    const invite = await api().call<{ id: string }>('POST', `/api/organizations/${api().organizationId(HEDGEBOX)}/invites/`,
      { target_email: 'zoe@new.example', level: 8 });
    const { user } = renderApp(`/invite/${invite.id}`);
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'Zoe');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'someone@else.example');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByText('This invite was sent to another email address.')).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: 'Email' }));
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'zoe@new.example');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('heading', { name: 'Welcome to Hedgebox' })).toBeInTheDocument();
    expect(screen.getByText('You joined as admin.')).toBeInTheDocument();
    expect(screen.getByText(/^phx_/)).toBeInTheDocument();
    expect(api().store.users.getByEmail('zoe@new.example')?.first_name).toBe('Zoe');
  });

  it('says when the invite is gone', async () => {
    const { user } = renderApp('/invite/00000000-0000-4000-8000-000000000000');
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'X');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'x@new.example');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This invite does not exist any more');
  });
});
