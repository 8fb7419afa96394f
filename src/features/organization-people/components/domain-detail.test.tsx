import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';
import { txtRecordsForThisFile } from '@testing/dns-server';

const api = setupTestApi();
const txt = txtRecordsForThisFile();

describe('domains', () => {
  it('adds a domain, shows its TXT record, verifies it in words and then unlocks JIT', async () => {
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/domains`, { apiKey: api().demoKey });
    await user.type(await screen.findByRole('textbox', { name: 'Domain' }), 'Acme.example');
    await user.click(screen.getByRole('button', { name: 'Add domain' }));
    expect(screen.getByRole('textbox', { name: 'Domain' })).toHaveAccessibleDescription(
      /Enter a valid domain in lower case/,
    );
    // The server's refusal lands on the field too (spaces around a pasted name are trimmed first).
    await user.clear(screen.getByRole('textbox', { name: 'Domain' }));
    await user.type(screen.getByRole('textbox', { name: 'Domain' }), ' hedgebox.example ');
    await user.click(screen.getByRole('button', { name: 'Add domain' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Domain' })).toHaveAccessibleDescription(
        'A domain with this name already exists.',
      ),
    );
    expect(screen.getByRole('textbox', { name: 'Domain' })).toHaveFocus();
    await user.clear(screen.getByRole('textbox', { name: 'Domain' }));
    await user.type(screen.getByRole('textbox', { name: 'Domain' }), 'acme.example');
    await user.click(screen.getByRole('button', { name: 'Add domain' }));

    expect(await screen.findByRole('heading', { name: /acme\.example/, level: 1 })).toHaveTextContent('Not verified');
    expect(screen.getByText('_posthog-challenge.acme.example')).toBeInTheDocument();
    const jit = screen.getByRole('switch', { name: 'Automatic provisioning' });
    expect(jit).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText(/Not verified yet: no TXT record _posthog-challenge\.acme\.example/),
    ).toHaveAttribute('role', 'status');

    const challenge = (
      api().store.db.prepare('SELECT verification_challenge FROM domains WHERE domain = ?').get('acme.example') as {
        verification_challenge: string;
      }
    ).verification_challenge;
    txt.set('_posthog-challenge.acme.example', [challenge]);
    await user.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Verified on', { exact: false })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Automatic provisioning' })).toBeEnabled());
    await user.click(screen.getByRole('switch', { name: 'Automatic provisioning' }));
    await waitFor(() =>
      expect(
        api()
          .store.db.prepare('SELECT jit_provisioning_enabled AS j FROM domains WHERE domain = ?')
          .get('acme.example'),
      ).toEqual({ j: 1 }),
    );
  });

  it('checks the SAML certificate as PEM before saving; SAML can be enforced only once it is configured', async () => {
    const domain = api().store.domains.byName('hedgebox.example')!;
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/domains/${domain.id}`, {
      apiKey: api().demoKey,
    });
    const saml = async () =>
      within(await screen.findByRole('combobox', { name: 'Enforce single sign-on with' })).getByRole('option', {
        name: /^SAML/,
      });
    expect(await saml()).toBeDisabled();
    // The page's crumb is the domain's name.
    expect(
      within(await screen.findByRole('navigation', { name: 'Breadcrumb' })).getByText('hedgebox.example'),
    ).toHaveAttribute('aria-current', 'page');
    expect(await saml()).toHaveTextContent('SAML (configure it below first)');
    await user.type(await screen.findByRole('textbox', { name: 'Entity ID' }), 'https://idp.example/entity');
    await user.type(screen.getByRole('textbox', { name: 'ACS URL' }), 'https://idp.example/acs');
    const cert = screen.getByRole('textbox', { name: 'X.509 certificate' });
    await user.type(cert, 'not a certificate');
    await user.click(screen.getByRole('button', { name: 'Save SAML' }));
    expect(cert).toHaveAccessibleDescription(/Paste the certificate in PEM form/);
    await user.clear(cert);
    await user.type(cert, '-----BEGIN CERTIFICATE-----{enter}MIIBszCCAVmgAwIBAgIUYz0={enter}-----END CERTIFICATE-----');
    await user.click(screen.getByRole('button', { name: 'Save SAML' }));
    expect(await screen.findByText('SAML is configured.')).toBeInTheDocument();
    await waitFor(async () => expect(await saml()).toBeEnabled());
    expect(await saml()).toHaveTextContent(/^SAML$/);
  });

  it('enforcing SSO asks first, saying how many members of the domain sign in with a password; turning it off does not ask', async () => {
    const domain = api().store.domains.byName('hedgebox.example')!;
    const sso = () =>
      (api().store.db.prepare('SELECT sso_enforcement AS s FROM domains WHERE id = ?').get(domain.id) as { s: string })
        .s;
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/domains/${domain.id}`, {
      apiKey: api().demoKey,
    });
    const select = await screen.findByRole('combobox', { name: 'Enforce single sign-on with' });
    await user.selectOptions(select, 'Google');
    let dialog = await screen.findByRole('alertdialog', { name: 'Enforce Google sign-in for hedgebox.example?' });
    // Priya and Sofía sign in with a password; Marcus with a social login; Demo Admin is at example.com.
    await waitFor(() =>
      expect(dialog).toHaveAccessibleDescription(
        'Everyone with an @hedgebox.example address will have to sign in with Google. 2 members of this organization sign in with a password now and will be locked out until they sign in with Google.',
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sso()).toBe('');
    expect(select).toHaveDisplayValue('Not enforced');

    await user.selectOptions(select, 'GitHub');
    dialog = await screen.findByRole('alertdialog', { name: 'Enforce GitHub sign-in for hedgebox.example?' });
    await user.click(within(dialog).getByRole('button', { name: 'Enforce GitHub' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(sso()).toBe('github');
    expect(select).toHaveDisplayValue('GitHub');

    await user.selectOptions(select, 'Not enforced');
    await waitFor(() => expect(sso()).toBe(''));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows a member the domains without the controls only admins may use', async () => {
    const marcus = api().store.users.getByEmail('marcus@hedgebox.example')!;
    const key = api().store.apiKeys.create(
      { user_id: marcus.id, label: 'member', scopes: ['*'], scoped_organizations: null },
      new Date().toISOString(),
    ).key;
    const organizationId = api().organizationId(HEDGEBOX);
    const { user } = renderApp(`/organizations/${organizationId}/domains`, { apiKey: key });
    expect(
      await screen.findByText('Only admins and owners can add, verify and configure domains.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add domain' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('link', { name: 'hedgebox-labs.example' }));
    expect(await screen.findByRole('heading', { name: /hedgebox-labs\.example/, level: 1 })).toBeInTheDocument();
    expect(screen.getByText('_posthog-challenge.hedgebox-labs.example')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete domain' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save SAML' })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Automatic provisioning' })).toBeDisabled();
  });
});
