import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { personalApiKeyEndpoints } from '@/contract/personal-api-keys';
import { failWithNetworkError, HEDGEBOX, NORTHWIND, override, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

describe('sign-in', () => {
  it('signs in with a valid key and goes on to where the user was going', async () => {
    const { user } = renderApp('/sign-in?redirect=%2Forganizations%3FpageSize%3D10');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByLabelText('Server URL')).toHaveValue(window.location.origin);

    await user.type(screen.getByLabelText('API key'), api().demoKey);
    await user.click(screen.getByRole('checkbox', { name: 'Remember in this tab' }));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Organizations' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: HEDGEBOX })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/organizations');
    expect(window.location.search).toContain('pageSize=10');
    expect(JSON.stringify(sessionStorage)).toContain(api().demoKey);
    expect(JSON.stringify(localStorage)).not.toContain(api().demoKey);
  });

  it('keeps the key in memory only when "Remember in this tab" is not ticked', async () => {
    const { user } = renderApp('/sign-in');
    await user.type(await screen.findByLabelText('API key'), api().demoKey);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Organizations' })).toBeInTheDocument();
    expect(JSON.stringify(sessionStorage)).not.toContain(api().demoKey);
  });

  it('says the key is invalid when the server answers 401', async () => {
    const { user } = renderApp('/sign-in');
    await user.type(await screen.findByLabelText('API key'), 'phx_notARealKeyAtAll1234567890');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/invalid api key/i);
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('says the server is unreachable on a network error', async () => {
    failWithNetworkError(personalApiKeyEndpoints.current);
    const { user } = renderApp('/sign-in');
    await user.type(await screen.findByLabelText('API key'), api().demoKey);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/server unreachable/i);
  });

  it('says when the address answers but is not the analytics API', async () => {
    override(personalApiKeyEndpoints.current, () => HttpResponse.text('<html>hello</html>', { status: 200 }));
    const { user } = renderApp('/sign-in');
    await user.type(await screen.findByLabelText('API key'), api().demoKey);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/not the analytics api/i);
  });

  it('asks for a key before calling the server', async () => {
    const { user } = renderApp('/sign-in');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('API key')).toHaveAccessibleDescription(/enter your api key/i);
  });

  it('signs in from a #key= link, removes the key from the address bar and opens the route in the URL', async () => {
    renderApp(`/organizations?pageSize=10#key=${api().demoKey}`);
    expect(window.location.hash).toBe('');
    expect(window.location.href).not.toContain(api().demoKey);
    expect(await screen.findByRole('heading', { name: 'Organizations' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: NORTHWIND })).toBeInTheDocument();
    expect(JSON.stringify(sessionStorage)).toContain(api().demoKey);
  });

  it('a #key= link on the bare origin lands on the organizations list', async () => {
    renderApp(`/#key=${api().demoKey}`);
    expect(await screen.findByRole('heading', { name: 'Organizations' })).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/organizations'));
  });

  it('an invalid #key= link lands on sign-in, which then returns to the same page', async () => {
    const { user } = renderApp('/organizations?pageSize=50#key=phx_revokedKeyRevokedKey1234567');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByText(/no longer accepts your api key/i)).toBeInTheDocument();
    await user.type(screen.getByLabelText('API key'), api().demoKey);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Organizations' })).toBeInTheDocument();
    expect(window.location.search).toContain('pageSize=50');
  });

  it('sends a signed-out visitor to sign-in, and back afterwards', async () => {
    const { user } = renderApp('/organizations?page=1&pageSize=10');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('API key'), api().demoKey);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Organizations' })).toBeInTheDocument();
    expect(window.location.search).toContain('pageSize=10');
  });

  it('signing out forgets the key and shows sign-in', async () => {
    const { user } = renderApp(`/organizations#key=${api().demoKey}`);
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(JSON.stringify(sessionStorage)).not.toContain(api().demoKey);
    expect(screen.getByLabelText('API key')).toHaveValue('');
  });
});

describe('a key revoked during the session', () => {
  it('returns to sign-in on the next 401, then back to the same page after signing in again', async () => {
    const { user, queryClient } = renderApp('/organizations', { apiKey: api().demoKey });
    await user.click(await screen.findByRole('link', { name: NORTHWIND }));
    expect(await screen.findByRole('heading', { level: 1, name: NORTHWIND })).toBeInTheDocument();
    // The page has loaded all it reads, the sidebar's project list too (its request starts in an
    // effect, after the page has painted): the next request is the save.
    await waitFor(() =>
      expect(queryClient.getQueryState(['projects', 'list', { limit: 1000, offset: 0 }])?.status).toBe('success'),
    );
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const globexPath = window.location.pathname;

    const NEW_KEY = api().makeKey(['*']);
    const demo = api()
      .store.apiKeys.list()
      .find((key) => key.label === 'Demo key')!;
    api().store.apiKeys.revoke(demo.id);
    await user.click(screen.getByRole('checkbox', { name: 'Enforce two-factor authentication' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByText(/no longer accepts your api key/i)).toBeInTheDocument();
    await user.type(screen.getByLabelText('API key'), NEW_KEY);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: NORTHWIND })).toBeInTheDocument();
    expect(window.location.pathname).toBe(globexPath);
  });
});

describe('a key revoked before the app opens', () => {
  it('opens sign-in saying so instead of the page, then returns to that page', async () => {
    const revoked = api().makeKey(['*']);
    const stored = api()
      .store.apiKeys.list()
      .find((key) => revoked.endsWith(key.mask_value.slice(-4)) && key.label === 'test key')!;
    api().store.apiKeys.revoke(stored.id);
    const { user } = renderApp('/organizations?pageSize=10', { apiKey: revoked });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByText(/no longer accepts your api key/i)).toBeInTheDocument();
    await user.type(screen.getByLabelText('API key'), api().demoKey);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Organizations' })).toBeInTheDocument();
    expect(window.location.search).toContain('pageSize=10');
  });
});
