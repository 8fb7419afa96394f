import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const invited = () =>
  (api().store.db.prepare('SELECT target_email FROM invites WHERE organization_id = ? ORDER BY target_email')
    .all(api().organizationId(HEDGEBOX)) as { target_email: string }[]).map((r) => r.target_email);

describe('invite people', () => {
  it('fills rows from a pasted list, shows the server error on its row, sends nothing until fixed', async () => {
    const { user, router } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites/new`, { apiKey: api().demoKey });
    await user.click(await screen.findByText('Paste a list of emails'));
    await user.click(screen.getByRole('textbox', { name: 'Emails' }));
    await user.paste('Ann Lee <ann@new.example>, marcus@hedgebox.example\ncy@new.example');
    await user.click(screen.getByRole('button', { name: 'Fill rows' }));
    expect(screen.getByRole('textbox', { name: 'Email 1' })).toHaveValue('ann@new.example');
    expect(screen.getByRole('textbox', { name: 'Name 1' })).toHaveValue('Ann');
    expect(screen.getByRole('textbox', { name: 'Email 3' })).toHaveValue('cy@new.example');
    const before = invited();

    await user.click(screen.getByRole('button', { name: 'Send invites' }));
    const email2 = screen.getByRole('textbox', { name: 'Email 2' });
    await waitFor(() => expect(email2).toHaveAccessibleDescription('A user with this email address already belongs to the organization.'));
    expect(screen.getByRole('alert')).toHaveTextContent('Nobody was invited');
    expect(invited()).toEqual(before);

    await user.clear(email2);
    await user.type(email2, 'x@');
    await user.click(screen.getByRole('button', { name: 'Send invites' }));
    expect(email2).toHaveAccessibleDescription('Enter a valid email address.');
    await user.clear(email2);
    await user.type(email2, 'bo@new.example');
    await user.click(screen.getByRole('button', { name: 'Send invites' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/invites$/));
    expect(invited()).toEqual(expect.arrayContaining(['ann@new.example', 'bo@new.example', 'cy@new.example']));
    expect(await screen.findByRole('cell', { name: 'bo@new.example' })).toBeInTheDocument();
  });

  it('a pasted list longer than one invite fills 20 rows and keeps the rest in the box, saying so; text without an address says that', async () => {
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites/new`, { apiKey: api().demoKey });
    await user.click(await screen.findByText('Paste a list of emails'));
    const box = screen.getByRole('textbox', { name: 'Emails' });
    await user.click(box);
    await user.paste('just some words');
    await user.click(screen.getByRole('button', { name: 'Fill rows' }));
    expect(screen.getByText('No email address found in the text.')).toHaveAttribute('role', 'status');

    await user.clear(box);
    await user.click(box);
    await user.paste(Array.from({ length: 25 }, (_, i) => `p${i}@many.example`).join('\n'));
    await user.click(screen.getByRole('button', { name: 'Fill rows' }));
    expect(screen.getByRole('textbox', { name: 'Email 20' })).toHaveValue('p19@many.example');
    expect(screen.queryByRole('textbox', { name: 'Email 21' })).toBeNull();
    expect(box).toHaveValue(['p20', 'p21', 'p22', 'p23', 'p24'].map((p) => `${p}@many.example`).join('\n'));
    expect(screen.getByText('One invite sends at most 20 people: 5 addresses stay here for the next one.')).toHaveAttribute('role', 'status');
  });

  it('lists pending and expired invites; revoke removes one', async () => {
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites`, { apiKey: api().demoKey });
    const expired = (await screen.findByRole('cell', { name: 'old.hire@hedgebox.example' })).closest('tr')!;
    expect(expired).toHaveTextContent('Expired');
    const pending = screen.getByRole('cell', { name: 'nadia@hedgebox.example' }).closest('tr')!;
    expect(pending).toHaveTextContent(/Expires in 2 days/);
    await user.click(within(expired).getByRole('button', { name: /^Revoke the invite to / }));
    await user.click(await screen.findByRole('button', { name: 'Revoke invite' }));
    await waitFor(() => expect(invited()).not.toContain('old.hire@hedgebox.example'));
  });

  it('resend replaces the pending invite with a new one', async () => {
    const idOf = () => (api().store.db.prepare('SELECT id FROM invites WHERE target_email = ?').get('nadia@hedgebox.example') as { id: string }).id;
    const before = idOf();
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Resend the invite to nadia@hedgebox.example' }));
    expect(await screen.findByText('A new invite was sent to nadia@hedgebox.example')).toBeInTheDocument();
    expect(idOf()).not.toBe(before);
  });
});
