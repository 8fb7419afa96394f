import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FunnelParamsInput } from '@/contract/analytics-params';
import { setupTestApi } from '@testing';
import { resetCredentialsStore, setCredentials } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';
import { FunnelCorrelation } from './funnel-correlation';
import { oddsInWords } from './funnel-correlation-table';

const api = setupTestApi();
const PROJECT = 1;

/**
 * 30 persons visit, the first 12 sign up (S = 12, F = 18). Persons 1–10 and 13 watched the demo
 * (10 successes, 1 failure: odds ratio (11/3)/(2/18) = 33); persons 1 and 14–25 saw an error
 * (1 success, 12 failures). The 12 who sign up are on the pro plan, the others on free.
 */
async function ingest() {
  const token = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').pluck().get(PROJECT) as string;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const id = (i: number) => `fc-${String(i).padStart(2, '0')}`;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const batch = [
    ...range(1, 30).map((i) => ({
      event: 'fc visit',
      distinct_id: id(i),
      timestamp: at(60),
      properties: { $set: { plan: i <= 12 ? 'pro' : 'free' } },
    })),
    ...[...range(1, 10), 13].map((i) => ({ event: 'fc watched demo', distinct_id: id(i), timestamp: at(50) })),
    ...[1, ...range(14, 25)].map((i) => ({ event: 'fc saw error', distinct_id: id(i), timestamp: at(45) })),
    ...range(1, 12).map((i) => ({ event: 'fc signup', distinct_id: id(i), timestamp: at(30) })),
  ];
  await api().call('POST', '/batch/', { api_key: token, batch });
}

const params: FunnelParamsInput = {
  events: [
    { id: 'fc visit', type: 'events', order: 0 },
    { id: 'fc signup', type: 'events', order: 1 },
  ],
  date_from: '-7d',
};

function renderCorrelation(p: FunnelParamsInput = params) {
  resetCredentialsStore();
  setCredentials({ baseUrl: window.location.origin, key: api().demoKey }, false);
  const client = createQueryClient({ onUnauthorized: () => undefined });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <FunnelCorrelation projectId={PROJECT} params={p} />
    </QueryClientProvider>,
  );
  return user;
}

/** The correlations are computed once asked for. */
async function show(user: ReturnType<typeof userEvent.setup>) {
  expect(screen.queryByRole('table')).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Show correlations' }));
}

const rowOf = (table: HTMLElement, name: string) => within(table).getByRole('rowheader', { name }).closest('tr')!;
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('funnel correlation', () => {
  it('puts the words on the odds ratio', () => {
    expect(oddsInWords(2.345)).toBe('2.3× more likely to convert');
    expect(oddsInWords(0.25)).toBe('4× less likely to convert');
    expect(oddsInWords(1)).toBe('1× more likely to convert');
  });

  it('lists the events that raise and lower conversion, with their counts', async () => {
    await ingest();
    const user = renderCorrelation();
    await show(user);
    const table = await screen.findByRole('table', { name: 'Events that raise or lower conversion' });
    // Effect, converted, dropped off, odds ratio (then the Exclude button's cell).
    expect(cells(rowOf(table, 'fc watched demo')).slice(0, 4)).toEqual([
      '▲ 33× more likely to convert',
      '10',
      '1',
      '33.00',
    ]);
    const error = cells(rowOf(table, 'fc saw error'));
    expect(error[0]).toBe('▼ 11.1× less likely to convert');
    expect(error.slice(1, 3)).toEqual(['1', '12']);
    // The funnel's own steps are never correlated with themselves.
    expect(within(table).queryByRole('rowheader', { name: 'fc signup' })).not.toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Exclude fc saw error from the analysis' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table')).queryByRole('rowheader', { name: 'fc saw error' }),
      ).not.toBeInTheDocument(),
    );
    expect(
      within(screen.getByRole('list', { name: 'Events left out of the analysis' })).getByText('fc saw error'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Include fc saw error again' }));
    expect(
      await within(screen.getByRole('table')).findByRole('rowheader', { name: 'fc saw error' }),
    ).toBeInTheDocument();
  });

  it('correlates the values of a person property the user chooses', async () => {
    await ingest();
    const user = renderCorrelation();
    await show(user);
    await screen.findByRole('table');
    await user.click(screen.getByRole('radio', { name: 'Person properties' }));
    expect(screen.getByText('Choose one or more person properties to compare their values.')).toBeInTheDocument();
    const add = screen.getByRole('combobox', { name: 'Add a person property' });
    await waitFor(() => expect(within(add).getByRole('option', { name: 'plan' })).toBeInTheDocument());
    await user.selectOptions(add, 'plan');
    const table = await screen.findByRole('table', { name: 'Person property values that raise or lower conversion' });
    expect(cells(rowOf(table, 'plan = pro')).slice(0, 3)).toEqual([
      expect.stringMatching(/more likely to convert$/),
      '12',
      '0',
    ]);
    expect(cells(rowOf(table, 'plan = free')).slice(0, 3)).toEqual([
      expect.stringMatching(/less likely to convert$/),
      '0',
      '18',
    ]);
  });

  it('waits for a funnel of two steps', async () => {
    const user = renderCorrelation({ events: [{ id: 'fc visit', type: 'events', order: 0 }] });
    await show(user);
    expect(
      screen.getByText('Add at least two valid steps to see what correlates with conversion.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
