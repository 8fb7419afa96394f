import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, NORTHWIND, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const membersOf = (name: string) => `/organizations/${api().organizationId(name)}/members`;
const rowOf = (text: string) => screen.getByRole('cell', { name: text }).closest('tr')!;
const levelInStore = (email: string, organization = HEDGEBOX) =>
  (
    api()
      .store.db.prepare(
        'SELECT m.level FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ? AND m.organization_id = ?',
      )
      .get(email, api().organizationId(organization)) as { level: number } | undefined
  )?.level;

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

  it('making someone an owner is asked first: Cancel keeps their level, Make owner makes it', async () => {
    const { user } = renderApp(membersOf(HEDGEBOX), { apiKey: api().demoKey });
    const select = await screen.findByRole('combobox', { name: 'Level of Priya Raman' });
    const before = levelInStore('priya@hedgebox.example');
    await user.selectOptions(select, 'Owner');
    let dialog = await screen.findByRole('alertdialog', { name: 'Make Priya Raman an owner?' });
    expect(dialog).toHaveTextContent('Only an owner can undo this.');
    expect(select).toHaveValue(String(before));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(levelInStore('priya@hedgebox.example')).toBe(before);
    expect(select).toHaveValue(String(before));

    await user.selectOptions(select, 'Owner');
    dialog = await screen.findByRole('alertdialog', { name: 'Make Priya Raman an owner?' });
    await user.click(within(dialog).getByRole('button', { name: 'Make owner' }));
    await waitFor(() => expect(levelInStore('priya@hedgebox.example')).toBe(15));
    expect(await screen.findByText('Priya Raman is now owner')).toBeInTheDocument();
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
    await user.click(within(rowOf('sofia@hedgebox.example')).getByRole('button', { name: 'Remove Sofía García' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Sofía García' });
    expect(dialog).toHaveTextContent('Their personal API keys stop working for this organization at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Sofía García' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'sofia@hedgebox.example' })).not.toBeInTheDocument());
    expect(levelInStore('sofia@hedgebox.example')).toBeUndefined();
  });

  it('leaving an organization takes it off the organizations page at once; a removal updates the member count there', async () => {
    const { user, router } = renderApp('/organizations', { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'Organizations' });
    // The table is drawn anew on each visit: looked up each time.
    const countOf = (name: string) =>
      within(
        within(screen.getByRole('table', { name: 'Organizations' }))
          .getByRole('link', { name })
          .closest('tr')!,
      )
        .getAllByRole('cell')
        .map((c) => c.textContent);
    const before = countOf(HEDGEBOX);
    await router.navigate({ to: membersOf(HEDGEBOX) });
    await user.click(
      within(await screen.findByRole('row', { name: /sofia@hedgebox\.example/ })).getByRole('button', {
        name: 'Remove Sofía García',
      }),
    );
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove Sofía García' }),
    );
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'sofia@hedgebox.example' })).not.toBeInTheDocument());
    await router.navigate({ to: '/organizations' });
    const members = (cells: (string | null)[]) => cells.map(Number).filter((n) => Number.isInteger(n) && n > 0);
    // The members column drops by one; the projects column stays.
    await waitFor(() =>
      expect(members(countOf(HEDGEBOX))).toEqual([members(before)[0]! - 1, ...members(before).slice(1)]),
    );

    await router.navigate({ to: membersOf(NORTHWIND) });
    await user.click(
      within(await screen.findByRole('row', { name: /Demo Admin/ })).getByRole('button', {
        name: `Leave ${NORTHWIND}`,
      }),
    );
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave organization' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations'));
    const after = await screen.findByRole('table', { name: 'Organizations' });
    expect(within(after).queryByRole('link', { name: NORTHWIND })).toBeNull();
    expect(within(after).getByRole('link', { name: HEDGEBOX })).toBeInTheDocument();
  });
});
