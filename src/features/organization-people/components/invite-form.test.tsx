import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HttpResponse } from 'msw';
import { inviteEndpoints } from '@/contract/invites';
import { HEDGEBOX, override, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const invited = () =>
  (
    api()
      .store.db.prepare('SELECT target_email FROM invites WHERE organization_id = ? ORDER BY target_email')
      .all(api().organizationId(HEDGEBOX)) as { target_email: string }[]
  ).map((r) => r.target_email);

/** The pasted lines as shown: each line's text and its status in words. */
const lineStatuses = () =>
  within(screen.getByRole('list', { name: 'Pasted lines' }))
    .getAllByRole('listitem')
    .map((li) => {
      const [text, status] = [...li.children];
      return [text!.textContent, [...status!.children].map((c) => c.textContent).join(' ')];
    });

describe('invite people', () => {
  it('fills rows from a pasted list, shows the server error on its row, sends nothing until fixed', async () => {
    const { user, router } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites/new`, {
      apiKey: api().demoKey,
    });
    await user.click(await screen.findByText('Paste a list of emails'));
    await user.click(screen.getByRole('textbox', { name: 'Emails' }));
    await user.paste('Ann Lee <ann@new.example>, marcus@hedgebox.example\ncy@new.example');
    await user.click(screen.getByRole('button', { name: 'Fill rows' }));
    expect(screen.getByRole('textbox', { name: 'Email 1' })).toHaveValue('ann@new.example');
    expect(screen.getByRole('textbox', { name: 'Name 1' })).toHaveValue('Ann Lee');
    expect(screen.getByRole('textbox', { name: 'Email 3' })).toHaveValue('cy@new.example');
    const before = invited();

    await user.click(screen.getByRole('button', { name: 'Send invites' }));
    const email2 = screen.getByRole('textbox', { name: 'Email 2' });
    await waitFor(() =>
      expect(email2).toHaveAccessibleDescription('A user with this email address already belongs to the organization.'),
    );
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
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites/new`, {
      apiKey: api().demoKey,
    });
    await user.click(await screen.findByText('Paste a list of emails'));
    const box = screen.getByRole('textbox', { name: 'Emails' });
    await user.click(box);
    await user.paste('just some words');
    await user.click(screen.getByRole('button', { name: 'Fill rows' }));
    expect(lineStatuses()).toEqual([['just some words', 'Not added No email address on this line.']]);
    expect(box).toHaveValue('just some words');

    await user.clear(box);
    await user.click(box);
    await user.paste(Array.from({ length: 25 }, (_, i) => `p${i}@many.example`).join('\n'));
    await user.click(screen.getByRole('button', { name: 'Fill rows' }));
    expect(screen.getByRole('textbox', { name: 'Email 20' })).toHaveValue('p19@many.example');
    expect(screen.queryByRole('textbox', { name: 'Email 21' })).toBeNull();
    expect(box).toHaveValue(['p20', 'p21', 'p22', 'p23', 'p24'].map((p) => `${p}@many.example`).join('\n'));
    expect(screen.getByText('20 of 25 lines added to the rows; the lines not added stay in the box.')).toHaveAttribute(
      'role',
      'status',
    );
    expect(lineStatuses()[20]).toEqual([
      'p20@many.example',
      'Not added one invite sends at most 20 people: kept in the box for the next one',
    ]);
  });

  it('says what became of every pasted line: full names kept, bad and repeated addresses named, a pending invite sent again only when asked', async () => {
    const { user, router } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites/new`, {
      apiKey: api().demoKey,
    });
    await user.type(await screen.findByRole('textbox', { name: 'Email 1' }), 'zoe@new.example');
    await user.click(screen.getByText('Paste a list of emails'));
    const box = screen.getByRole('textbox', { name: 'Emails' });
    await user.click(box);
    await user.paste(
      'Ada Lovelace <ada@new.example>\n"Hopper, Grace" <grace@new.example>; not-an-address@\nZOE@new.example\nada@new.example\nnadia@hedgebox.example',
    );
    await user.click(screen.getByRole('button', { name: 'Fill rows' }));

    expect(lineStatuses()).toEqual([
      ['Ada Lovelace <ada@new.example>', 'Added row 2'],
      ['"Hopper, Grace" <grace@new.example>', 'Added row 3'],
      ['not-an-address@', 'Not added “not-an-address@” is not a valid email address.'],
      ['ZOE@new.example', 'Duplicate already in row 1'],
      ['ada@new.example', 'Duplicate already in row 2'],
      ['nadia@hedgebox.example', 'Already invited an invite is pending; sending again replaces it Invite again'],
    ]);
    expect(screen.getByRole('textbox', { name: 'Name 2' })).toHaveValue('Ada Lovelace');
    expect(screen.getByRole('textbox', { name: 'Name 3' })).toHaveValue('Hopper, Grace');
    // Only the line that can be fixed stays in the box.
    expect(box).toHaveValue('not-an-address@');

    await user.click(screen.getByRole('button', { name: 'Invite again' }));
    expect(screen.getByRole('textbox', { name: 'Email 4' })).toHaveValue('nadia@hedgebox.example');
    expect(lineStatuses()[5]).toEqual(['nadia@hedgebox.example', 'Added row 4']);

    await user.click(screen.getByRole('button', { name: 'Send invites' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/invites$/));
    const names = api()
      .store.db.prepare('SELECT target_email, first_name FROM invites WHERE target_email IN (?, ?, ?)')
      .all('ada@new.example', 'grace@new.example', 'nadia@hedgebox.example');
    expect(names).toEqual(
      expect.arrayContaining([
        { target_email: 'ada@new.example', first_name: 'Ada Lovelace' },
        { target_email: 'grace@new.example', first_name: 'Hopper, Grace' },
        { target_email: 'nadia@hedgebox.example', first_name: 'Nadia' },
      ]),
    );
  });

  it('a typed address with a pending invite is held back once, with the reason; sending again replaces that invite', async () => {
    const idOf = () =>
      (
        api().store.db.prepare('SELECT id FROM invites WHERE target_email = ?').get('oliver@partner.example') as {
          id: string;
        }
      ).id;
    const before = idOf();
    const { user, router } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites/new`, {
      apiKey: api().demoKey,
    });
    await user.type(await screen.findByRole('textbox', { name: 'Email 1' }), 'oliver@partner.example');
    await user.click(screen.getByRole('button', { name: 'Send invites' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This address is already invited. Send invites again to replace that invite, or remove the row.',
    );
    expect(screen.getByRole('textbox', { name: 'Email 1' })).toHaveAccessibleDescription(
      'Already invited, not yet accepted: send again to replace that invite with this one.',
    );
    expect(idOf()).toBe(before);
    // An edit clears the stale banner.
    await user.type(screen.getByRole('textbox', { name: 'Name 1' }), 'Oliver');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Send invites' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/invites$/));
    expect(idOf()).not.toBe(before);
  });

  it('a bad address puts its message on that row’s field, focuses it and sends nothing; rows are added and removed', async () => {
    const before = invited();
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites/new`, {
      apiKey: api().demoKey,
    });
    await user.type(await screen.findByRole('textbox', { name: 'Email 1' }), 'ok@new.example');
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.type(screen.getByRole('textbox', { name: 'Email 2' }), 'nope@');
    await user.click(screen.getByRole('button', { name: 'Send invites' }));

    const email2 = screen.getByRole('textbox', { name: 'Email 2' });
    await waitFor(() => expect(email2).toHaveAccessibleDescription('Enter a valid email address.'));
    expect(email2).toHaveAttribute('aria-invalid', 'true');
    expect(email2).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Email 1' })).not.toHaveAttribute('aria-invalid');
    expect(invited()).toEqual(before);

    // Row 1 removed: the bad row becomes row 1, its value and message with it.
    await user.click(screen.getByRole('button', { name: 'Remove row 1' }));
    expect(screen.getByRole('textbox', { name: 'Email 1' })).toHaveValue('nope@');
    expect(screen.getByRole('textbox', { name: 'Email 1' })).toHaveAccessibleDescription(
      'Enter a valid email address.',
    );
    expect(screen.queryByRole('textbox', { name: 'Email 2' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove row 1' })).toBeDisabled();
  });

  it('a bulk refusal naming an item’s field lands on that row, counting only the rows sent', async () => {
    // A production instance may refuse a name the reference server takes; its attr is `<item>__<field>`.
    override(inviteEndpoints.bulk, () =>
      HttpResponse.json(
        {
          type: 'validation_error',
          code: 'invalid_input',
          detail: 'Names may not contain a URL.',
          attr: '1__first_name',
        },
        { status: 400 },
      ),
    );
    const before = invited();
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites/new`, {
      apiKey: api().demoKey,
    });
    await user.type(await screen.findByRole('textbox', { name: 'Email 1' }), 'one@new.example');
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    // Row 2 stays blank (not sent): the second item sent is row 3.
    await user.type(screen.getByRole('textbox', { name: 'Email 3' }), 'three@new.example');
    await user.type(screen.getByRole('textbox', { name: 'Name 3' }), 'three.example');
    await user.click(screen.getByRole('button', { name: 'Send invites' }));

    const name3 = screen.getByRole('textbox', { name: 'Name 3' });
    await waitFor(() => expect(name3).toHaveAccessibleDescription('Names may not contain a URL.'));
    expect(name3).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('Nobody was invited: fix the row marked below and send again.');
    expect(screen.getByRole('textbox', { name: 'Email 3' })).not.toHaveAttribute('aria-invalid');
    expect(invited()).toEqual(before);
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
    const idOf = () =>
      (
        api().store.db.prepare('SELECT id FROM invites WHERE target_email = ?').get('nadia@hedgebox.example') as {
          id: string;
        }
      ).id;
    const before = idOf();
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/invites`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Resend the invite to nadia@hedgebox.example' }));
    expect(await screen.findByText('A new invite was sent to nadia@hedgebox.example')).toBeInTheDocument();
    expect(idOf()).not.toBe(before);
  });
});
