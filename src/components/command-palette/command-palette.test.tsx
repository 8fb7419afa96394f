import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

// jsdom has no scrollIntoView; cmdk calls it on the active item.
if (typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = () => {};

const api = setupTestApi();

const pausedInStore = (name: string) =>
  (api().store.db.prepare('SELECT paused FROM batch_exports WHERE name = ?').get(name) as { paused: number }).paused ===
  1;

describe('command palette', () => {
  it('opens on Ctrl+K, finds a batch export by name on the server and opens it', async () => {
    const { user } = renderApp('/organizations', { apiKey: api().demoKey });
    await screen.findByRole('heading', { level: 1, name: 'Organizations' });
    await user.keyboard('{Control>}k{/Control}');
    const palette = await screen.findByRole('dialog', { name: 'Command palette' });
    await user.type(within(palette).getByRole('combobox'), 'warehouse');
    await user.click(await within(palette).findByRole('option', { name: /Warehouse sync/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Warehouse sync' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).not.toBeInTheDocument();
  });

  it('finds an insight through the insights search and opens it', async () => {
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Search and commands' }));
    const palette = await screen.findByRole('dialog', { name: 'Command palette' });
    await user.type(within(palette).getByRole('combobox'), 'weekly retention');
    const options = await within(palette).findAllByRole('option', { name: /Weekly retention/ });
    expect(options.length).toBeGreaterThan(0);
    await user.click(options[0]!);
    // At its short_id, as the production service's addresses.
    const shortId = api()
      .store.db.prepare("SELECT short_id FROM insights WHERE name = 'Weekly retention' AND project_id = 1")
      .pluck()
      .get() as string;
    await waitFor(() => expect(window.location.pathname).toBe(`/projects/1/insights/${shortId}`));
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).not.toBeInTheDocument();
  });

  it('pauses an export picked by name, and lists only the active ones for it', async () => {
    const { user } = renderApp('/organizations', { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Search and commands' }));
    const palette = await screen.findByRole('dialog', { name: 'Command palette' });
    await user.click(await within(palette).findByRole('option', { name: 'Pause a batch export…' }));
    await within(palette).findByRole('option', { name: /Hourly export check/ });
    expect(within(palette).queryByRole('option', { name: /Webhook relay/ })).not.toBeInTheDocument();
    await user.type(within(palette).getByRole('combobox'), 'hourly{Enter}');
    await waitFor(() => expect(pausedInStore('Hourly export check')).toBe(true));
    expect(await screen.findByText('Paused “Hourly export check”')).toBeInTheDocument();
  });

  it('? lists the keyboard shortcuts, except while typing in a field', async () => {
    const { user } = renderApp('/organizations', { apiKey: api().demoKey });
    await screen.findByRole('heading', { level: 1, name: 'Organizations' });
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog).toHaveTextContent('Open the command palette');
    // A button closes it too (Tab reaches it).
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument());
    await user.keyboard('?');
    await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    await user.keyboard('{Escape}');
    await user.keyboard('{Control>}k{/Control}');
    const palette = await screen.findByRole('dialog', { name: 'Command palette' });
    await user.type(within(palette).getByRole('combobox'), '?');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument();
  });

  it('offers the names as they are now: an organization renamed since it last opened shows its new name only', async () => {
    const id = api().organizationId(HEDGEBOX);
    const { user } = renderApp(`/organizations/${id}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Search and commands' }));
    let palette = await screen.findByRole('dialog', { name: 'Command palette' });
    await user.type(within(palette).getByRole('combobox'), 'hedgebox');
    const organizations = async () =>
      within(
        await within(screen.getByRole('dialog', { name: 'Command palette' })).findByRole('group', {
          name: 'Organizations',
        }),
      );
    await waitFor(async () =>
      expect((await organizations()).getAllByRole('option').map((o) => o.textContent)).toEqual([
        expect.stringContaining(HEDGEBOX),
      ]),
    );
    await user.keyboard('{Escape}');

    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Hedgebox Renamed');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Search and commands' }));
    palette = await screen.findByRole('dialog', { name: 'Command palette' });
    await user.type(within(palette).getByRole('combobox'), 'hedgebox');
    await waitFor(async () =>
      expect((await organizations()).getAllByRole('option').map((o) => o.textContent)).toEqual([
        expect.stringContaining('Hedgebox Renamed'),
      ]),
    );
  });
});
