import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, mswServer, renderApp, setupTestApi } from '@testing';

// jsdom has no scrollIntoView; cmdk (the event picker) calls it on the active item.
if (typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = () => {};

const api = setupTestApi();

/** The funnel bodies the app POSTs, and the statuses the server answers them with. */
function recordFunnels() {
  const sent: Record<string, unknown>[] = [];
  const statuses: number[] = [];
  const isFunnel = (url: string) => new URL(url).pathname.endsWith('/insights/funnel/');
  mswServer.events.on('request:start', ({ request }) => {
    if (request.method === 'POST' && isFunnel(request.url))
      void request
        .clone()
        .json()
        .then((body: Record<string, unknown>) => sent.push(body));
  });
  mswServer.events.on('response:mocked', ({ request, response }) => {
    if (request.method === 'POST' && isFunnel(request.url)) statuses.push(response.status);
  });
  return { sent, statuses };
}

/** Sends `batch` to the Hedgebox organization's first project; answers that project. */
async function ingestToHedgebox(batch: Record<string, unknown>[]) {
  const project = api()
    .store.db.prepare(
      'SELECT p.id, p.api_token FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id',
    )
    .get(HEDGEBOX) as { id: number; api_token: string };
  await api().call('POST', '/batch/', { api_key: project.api_token, batch });
  return project;
}

describe('aggregating by a group type', { timeout: 30_000 }, () => {
  it("offers persons and the project's group types; a funnel by companies asks for them and is answered", async () => {
    const project = await ingestToHedgebox([
      { event: '$pageview', distinct_id: 'ann', properties: { $groups: { company: 'acme' } } },
      { event: 'user signed up', distinct_id: 'ann', properties: { $groups: { company: 'acme' } } },
      {
        event: '$groupidentify',
        distinct_id: 'ann',
        properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } },
      },
    ]);
    const { sent, statuses } = recordFunnels();
    const { user } = renderApp(`/projects/${project.id}/insights/new/funnels`, { apiKey: api().demoKey });
    const select = await screen.findByRole('combobox', { name: 'Aggregating by' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Persons', 'company (groups)']);
    await waitFor(() => expect(sent.length).toBeGreaterThan(0));
    expect(sent.at(-1)).not.toHaveProperty('aggregation_group_type_index');

    const table = await screen.findByRole('table', { name: 'New funnel: data' });
    expect(within(table).getByRole('columnheader', { name: 'Persons' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Person properties' })).toBeInTheDocument();

    // By companies: the table and the correlation name what they count, and a step's count opens its companies.
    await user.selectOptions(select, 'company (groups)');
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ aggregation_group_type_index: 0 }));
    await waitFor(() => expect(statuses.at(-1)).toBe(200));
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: 'Companies' })).toBeInTheDocument());
    expect(within(table).queryByRole('columnheader', { name: 'Persons' })).not.toBeInTheDocument();
    expect(screen.getByText('Leave out companies that did an event between two steps.')).toBeInTheDocument();
    expect(
      screen.getByText('What the companies that converted did more, or less, than those that dropped off.'),
    ).toBeInTheDocument();
    // Person properties do not describe a company: correlation offers events only.
    expect(screen.queryByRole('radio', { name: 'Person properties' })).not.toBeInTheDocument();
    await user.click((await screen.findAllByRole('button', { name: /1 converted/ }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: /^Companies that converted at step 1/ });
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('rowheader')
          .map((c) => c.textContent),
      ).toEqual(['Acme']),
    );
    await user.keyboard('{Escape}');
    // Back to persons (its result may come from the cache): persons again.
    await user.selectOptions(select, 'Persons');
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: 'Persons' })).toBeInTheDocument());
    expect(screen.getByRole('radio', { name: 'Person properties' })).toBeInTheDocument();
  });

  it('a trend by companies offers its unique and active counts as companies', async () => {
    const project = await ingestToHedgebox([
      { event: '$pageview', distinct_id: 'ann', properties: { $groups: { company: 'acme' } } },
    ]);
    const { user } = renderApp(`/projects/${project.id}/insights/new/trends`, { apiKey: api().demoKey });
    const math = await screen.findByRole('combobox', { name: 'Series A math' });
    expect(within(math).getByRole('option', { name: 'Unique users' })).toBeInTheDocument();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Aggregating by' }), 'company (groups)');
    await waitFor(() => expect(within(math).getByRole('option', { name: 'Unique companies' })).toBeInTheDocument());
    expect(within(math).getByRole('option', { name: 'Weekly active companies' })).toBeInTheDocument();
    expect(within(math).queryByRole('option', { name: 'Unique users' })).not.toBeInTheDocument();
  });

  it('is not offered in a project without groups', async () => {
    renderApp('/projects/1/insights/new/retention', { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'New retention' })).toBeInTheDocument();
    await screen.findByRole('combobox', { name: 'Period' });
    expect(screen.queryByRole('combobox', { name: 'Aggregating by' })).not.toBeInTheDocument();
  });
});
