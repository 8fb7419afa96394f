import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { personEndpoints } from '@/contract/persons';
import { HttpResponse } from 'msw';
import { failWithServerError, HEDGEBOX, override, renderApp, setupTestApi, slowDown } from '@testing';

const api = setupTestApi();

let projectId: number;
let adaId: string;
beforeEach(async () => {
  const project = api()
    .store.db.prepare(
      'SELECT p.id, p.api_token FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id',
    )
    .get(HEDGEBOX) as { id: number; api_token: string };
  projectId = project.id;
  // Ada browses as anon-1 (22 pageviews), signs up as ada with properties, and identifies (the two merge).
  const at = (minute: number) => new Date(Date.UTC(2024, 5, 3, 10, minute)).toISOString();
  await api().call('POST', '/batch/', {
    api_key: project.api_token,
    batch: [
      ...Array.from({ length: 22 }, (_, i) => ({
        event: '$pageview',
        distinct_id: 'anon-1',
        timestamp: at(i),
        properties: { $current_url: `https://x.io/page-${i}` },
      })),
      {
        event: 'signed_up',
        distinct_id: 'ada',
        timestamp: at(30),
        properties: { $set: { email: 'ada@x.io', note: '<img src=x onerror=alert(1)>', seats: 3 } },
      },
      { event: '$identify', distinct_id: 'ada', timestamp: at(31), properties: { $anon_distinct_id: 'anon-1' } },
    ],
  });
  // Her id, as a funnel step's persons list gives it.
  const funnel = await api().call<{ results: [{ people: [{ id: string }] }] }>(
    'GET',
    `/api/projects/${projectId}/persons/funnel/?events=${encodeURIComponent('[{"id":"signed_up"}]')}&date_from=2024-06-01&date_to=2024-06-05&funnel_step=1`,
  );
  adaId = funnel.results[0].people[0].id;
});

describe('the person page', () => {
  it('shows the person, its properties as text, its distinct ids and its events a page at a time, with the page in the URL', async () => {
    const { user, router } = renderApp(`/projects/${projectId}/persons/${adaId}`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'ada@x.io' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^ada@x\.io · .+ · Analytics admin$/));
    expect(screen.getByText('anon-1')).toBeInTheDocument();
    // A property that looks like markup is shown as its text.
    const properties = screen.getByRole('region', { name: 'Properties' });
    expect(within(properties).getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(within(properties).getByText('3')).toBeInTheDocument();
    expect(document.querySelector('img[src="x"]')).toBeNull();

    const events = await screen.findByRole('table', { name: 'Events of ada@x.io, newest first' });
    const rows = within(events).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(20);
    expect(within(rows[0]!).getByText('$identify')).toBeInTheDocument();
    expect(screen.getByText('1–20 of 24')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 2 }));
    // The oldest events: the first pageviews.
    expect(await screen.findByText('https://x.io/page-0')).toBeInTheDocument();
    expect(screen.getByText('21–24 of 24')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: /Events of/ })).getAllByRole('row')).toHaveLength(5);
  });

  it('shows a skeleton while the person loads, and says so when it has no events', async () => {
    // Ingestion never stores a person without an event: the empty answer is made here.
    override(personEndpoints.events, () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] }));
    slowDown(personEndpoints.retrieve, 300);
    renderApp(`/projects/${projectId}/persons/${adaId}`, { apiKey: api().demoKey });
    expect(await screen.findByRole('status', { name: 'Loading the person' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'ada@x.io' })).toBeInTheDocument();
    expect(await screen.findByText('No events from this person yet.')).toBeInTheDocument();
  });

  it('keeps the person when its events fail, with Try again; an unknown person is Not found', async () => {
    failWithServerError(personEndpoints.events);
    const { unmount } = renderApp(`/projects/${projectId}/persons/${adaId}`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'ada@x.io' })).toBeInTheDocument();
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('The events could not be loaded.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    unmount();

    renderApp(`/projects/${projectId}/persons/00000000-0000-4000-8000-000000000999`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
  });
});
