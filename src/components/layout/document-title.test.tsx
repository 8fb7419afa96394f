import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

describe('the tab title', () => {
  it('names the page, then its organization or project, then the app, and follows navigation', async () => {
    const organizationId = api().organizationId(HEDGEBOX);
    const { user } = renderApp(`/organizations/${organizationId}/members`, { apiKey: api().demoKey });
    await waitFor(() => expect(document.title).toBe('Members · Hedgebox · Analytics admin'));
    await user.click(await screen.findByRole('link', { name: 'Domains' }));
    await waitFor(() => expect(document.title).toBe('Domains · Hedgebox · Analytics admin'));
    await user.click(await screen.findByRole('link', { name: 'hedgebox.example' }));
    await waitFor(() => expect(document.title).toBe('hedgebox.example · Domains · Hedgebox · Analytics admin'));
  });

  it("an insight's page: its name, then the project's", async () => {
    const { short_id: shortId } = api()
      .store.db.prepare("SELECT short_id FROM insights WHERE project_id = 1 AND name = 'Revenue'")
      .get() as { short_id: string };
    renderApp(`/projects/1/insights/${shortId}`, { apiKey: api().demoKey });
    await waitFor(() => expect(document.title).toBe('Revenue · Insights · Hedgebox Web · Analytics admin'));
  });

  it('a page outside the app shell names itself', async () => {
    renderApp('/sign-in');
    await waitFor(() => expect(document.title).toBe('Sign in · Analytics admin'));
  });
});
