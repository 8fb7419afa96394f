import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Plugin } from '@/contract/plugins';
import { compilePluginSourcesInTheseTests, HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const org = () => api().organizationId(HEDGEBOX);
const group = (slug: string) => `/organizations/${org()}/pipeline/${slug}`;
const rowOf = (table: HTMLElement, name: string) => within(table).getByRole('link', { name }).closest('tr')!;
/** A 1×1 PNG, as a data: URL (the page's CSP allows `img-src 'self' data:`). */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('the list of a pipeline group', () => {
  it('shows each app’s icon in its own column: an image it may load, the catalogue’s glyph, else the first letter', async () => {
    const create = (name: string, icon: string) =>
      api().call<Plugin>('POST', `/api/organizations/${org()}/pipeline_destinations/`, {
        plugin_type: 'local',
        name,
        icon,
      });
    await create('Inline icon', PNG);
    await create('Own icon', '/icons/own.png');
    await create('Remote icon', 'https://cdn.example.com/icon.png');
    await create('Sly icon', '/\\cdn.example.com/icon.png'); // a path to the browser, another host's URL once resolved
    renderApp(group('destinations'), { apiKey: api().demoKey });
    const table = await screen.findByRole('table', { name: 'Destinations' });
    // The icon column's header is for screen readers; the name column comes after it.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Icon', 'Name', 'Type', 'Version', 'Delivered / failed']);

    const inline = rowOf(table, 'Inline icon').querySelector('img')!;
    expect(inline).toHaveAttribute('src', PNG);
    expect(inline).toHaveAttribute('alt', '');
    expect(inline).toHaveAttribute('width', '32');
    expect(inline).toHaveAttribute('height', '32');
    expect(rowOf(table, 'Own icon').querySelector('img')).toHaveAttribute('src', '/icons/own.png');
    // An image that does not load gives way to the letter.
    fireEvent.error(rowOf(table, 'Own icon').querySelector('img')!);
    await waitFor(() => expect(rowOf(table, 'Own icon').querySelector('img')).toBeNull());
    expect(rowOf(table, 'Own icon').cells[0]).toHaveTextContent(/^O$/);
    // Another host's image would be blocked by the CSP: not requested, the letter instead.
    expect(rowOf(table, 'Remote icon').querySelector('img')).toBeNull();
    expect(rowOf(table, 'Remote icon').cells[0]).toHaveTextContent(/^R$/);
    expect(rowOf(table, 'Sly icon').querySelector('img')).toBeNull();
    // The catalogue names a glyph ("webhook"); a plugin without an icon has its letter.
    expect(rowOf(table, 'Webhook').cells[0]!.querySelector('svg')).not.toBeNull();
    expect(rowOf(table, 'Webhook').cells[0]).toHaveTextContent('');
    expect(rowOf(table, 'Signup forwarder').cells[0]).toHaveTextContent(/^S$/);
    // Decorative everywhere: the name next to it says what it is.
    for (const row of within(table).getAllByRole('row').slice(1))
      expect(within((row as HTMLTableRowElement).cells[0]!).queryByRole('img')).toBeNull();
  });

  it('pages through the group on the server, the page in the address', async () => {
    // Four seeded destinations and seventeen more: 21, a page of 20 and one of 1.
    for (let i = 1; i <= 17; i += 1) {
      await api().call('POST', `/api/organizations/${org()}/pipeline_destinations/`, {
        plugin_type: 'local',
        name: `Paged ${String(i).padStart(2, '0')}`,
      });
    }
    const { user, router } = renderApp(group('destinations'), { apiKey: api().demoKey });
    const table = await screen.findByRole('table', { name: 'Destinations' });
    expect(within(table).getAllByRole('row')).toHaveLength(21); // the header and 20
    const pages = screen.getByRole('navigation', { name: 'Destinations pages' });
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 2 }));
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Destinations' })).getAllByRole('row')).toHaveLength(2),
    );
    expect(
      within(screen.getByRole('table', { name: 'Destinations' })).getByRole('link', { name: 'Paged 17' }),
    ).toBeInTheDocument();
  });

  it('offers "Write your own" for destinations and frontend apps, not import apps', async () => {
    const { user } = renderApp(group('frontend-apps'), { apiKey: api().demoKey });
    expect(await screen.findByRole('table', { name: 'Frontend apps' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Write your own' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name of the new source plugin' })).toBeInTheDocument();

    await user.click(
      within(screen.getByRole('navigation', { name: 'Pipeline groups' })).getByRole('link', { name: 'Import apps' }),
    );
    expect(await screen.findByRole('table', { name: 'Import apps' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Install from the repository' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Write your own' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name of the new source plugin' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create source plugin' })).not.toBeInTheDocument();
  });

  describe('with plugin sources compiled', () => {
    compilePluginSourcesInTheseTests();

    it('creates a source plugin from the list: it is listed as Source, with a page to edit its code', async () => {
      const { user } = renderApp(group('destinations'), { apiKey: api().demoKey });
      const table = await screen.findByRole('table', { name: 'Destinations' });
      const create = screen.getByRole('button', { name: 'Create source plugin' });
      expect(create).toBeDisabled();
      await user.type(screen.getByRole('textbox', { name: 'Name of the new source plugin' }), 'Order forwarder');
      await user.click(create);

      expect(await screen.findByText('“Order forwarder” created: edit its source from its page')).toBeInTheDocument();
      await waitFor(() => expect(within(table).getByRole('link', { name: 'Order forwarder' })).toBeInTheDocument());
      expect(rowOf(table, 'Order forwarder')).toHaveTextContent('Source');
      expect(screen.getByRole('textbox', { name: 'Name of the new source plugin' })).toHaveValue('');

      const created = (
        await api().call<{ results: Plugin[] }>('GET', `/api/organizations/${org()}/pipeline_destinations/?limit=1000`)
      ).results.find((p) => p.name === 'Order forwarder')!;
      expect(created.plugin_type).toBe('source');
      const files = await api().call<Record<string, string>>(
        'GET',
        `/api/organizations/${org()}/pipeline_destinations/${created.id}/source/`,
      );
      expect(Object.keys(files)).toEqual(expect.arrayContaining(['plugin.json', 'index.ts']));
      expect(files['index.ts']).toMatch(/export (async )?function onEvent/);

      await user.click(within(table).getByRole('link', { name: 'Order forwarder' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Order forwarder' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Edit source' })).toBeInTheDocument();
    });
  });
});
