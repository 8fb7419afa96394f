import { screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, NORTHWIND, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const membersOf = (name: string) => `/organizations/${api().organizationId(name)}/members`;
const rowOf = (text: string) => screen.getByRole('cell', { name: text }).closest('tr')!;
const levelInStore = (email: string, organization = HEDGEBOX) =>
  (api().store.db.prepare('SELECT m.level FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ? AND m.organization_id = ?')
    .get(email, api().organizationId(organization)) as { level: number } | undefined)?.level;

describe('members page', () => {
  it('lists members with level, 2FA and social login; the own level is locked with the reason', async () => {
    renderApp(membersOf(HEDGEBOX), { apiKey: api().demoKey });
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    const own = screen.getByRole('combobox', { name: 'Level of Demo Admin' });
    expect(own).toBeDisabled();
    await waitFor(() => expect(own).toHaveAccessibleDescription("You can't change your own access level."));
    expect(rowOf('marcus@hedgebox.example')).toHaveTextContent('Social login');
    expect(rowOf('priya@hedgebox.example')).toHaveTextContent('2FA');
  });

  it('changes a level as the owner', async () => {
    const { user } = renderApp(membersOf(HEDGEBOX), { apiKey: api().demoKey });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Level of Marcus Chen' }), 'Admin');
    await waitFor(() => expect(levelInStore('marcus@hedgebox.example')).toBe(8));
    expect(await screen.findByText('Marcus Chen is now admin')).toBeInTheDocument();
  });

  it('as an admin, an owner cannot be changed and nobody can be made owner', async () => {
    renderApp(membersOf(NORTHWIND), { apiKey: api().demoKey });
    const owner = await screen.findByRole('combobox', { name: 'Level of Amara Okafor' });
    expect(owner).toBeDisabled();
    expect(owner).toHaveAccessibleDescription('Only owners can change the level of an owner.');
    const jonas = screen.getByRole('combobox', { name: 'Level of Jonas Berg' });
    expect(jonas).toBeEnabled();
    expect(within(jonas).getByRole('option', { name: 'Owner' })).toBeDisabled();
  });

  it('searches by name or email through the URL', async () => {
    const { user, router } = renderApp(membersOf(HEDGEBOX), { apiKey: api().demoKey });
    await user.type(await screen.findByRole('searchbox', { name: 'Search members by name or email' }), 'raman');
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.getByRole('cell', { name: 'priya@hedgebox.example' })).toBeInTheDocument();
    expect(router.state.location.search).toMatchObject({ search: 'raman' });
  });

  it('removes a member behind a confirm that says their keys stop working', async () => {
    const { user } = renderApp(membersOf(HEDGEBOX), { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'Members' });
    await user.click(within(rowOf('sofia@hedgebox.example')).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Sofía García' });
    expect(dialog).toHaveTextContent('Their personal API keys stop working for this organization at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Sofía García' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'sofia@hedgebox.example' })).not.toBeInTheDocument());
    expect(levelInStore('sofia@hedgebox.example')).toBeUndefined();
  });
});
