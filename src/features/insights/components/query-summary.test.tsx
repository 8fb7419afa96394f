import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const PROJECT = 1;

/** The query list's terms and their descriptions, as a reader sees them. */
async function summary(filters: Record<string, unknown>, name: string) {
  const { id } = await api().call<{ id: number }>('POST', `/api/projects/${PROJECT}/insights/`, {
    name,
    filters,
    saved: true,
  });
  renderApp(`/projects/${PROJECT}/insights/${id}`, { apiKey: api().demoKey });
  expect(await screen.findByRole('heading', { level: 1, name: new RegExp(name) })).toBeInTheDocument();
  const list = screen.getByLabelText('Query');
  const terms = within(list)
    .getAllByRole('term')
    .map((t) => t.textContent);
  const texts = within(list)
    .getAllByRole('definition')
    .map((d) => d.textContent);
  return Object.fromEntries(terms.map((t, i) => [t, texts[i]]));
}

describe('a saved insight says what it shows, above its chart', () => {
  it('a trend: its series with their maths and own filters, the filters, the breakdown, the range and interval', async () => {
    const lines = await summary(
      {
        insight: 'TRENDS',
        events: [
          { id: '$pageview', type: 'events', order: 0, math: 'dau' },
          {
            id: 'purchase',
            type: 'events',
            order: 1,
            math: 'sum',
            math_property: 'revenue',
            properties: [{ key: 'plan', value: 'pro', operator: 'exact', type: 'event' }],
          },
        ],
        properties: {
          type: 'AND',
          values: [
            {
              type: 'OR',
              values: [
                { key: '$browser', value: ['Chrome', 'Safari'], operator: 'exact', type: 'event' },
                { key: 'email', operator: 'is_set', type: 'person' },
              ],
            },
          ],
        },
        filter_test_accounts: true,
        breakdown: '$os',
        date_from: '-30d',
        interval: 'week',
      },
      'Weekly buyers',
    );
    expect(lines).toEqual({
      Series: 'Pageview (unique persons); purchase (sum of revenue) where plan equals “pro”',
      Filters: '(Browser equals “Chrome” or “Safari” or person email is set); internal and test users excluded',
      Breakdown: 'OS',
      Range: 'Last 30 days, weekly',
    });
  });

  it('a funnel: its steps in order, and a custom range in dates', async () => {
    const lines = await summary(
      {
        insight: 'FUNNELS',
        events: [
          { id: 'purchase', type: 'events', order: 1 },
          { id: 'user signed up', type: 'events', order: 0, custom_name: 'Signed up' },
        ],
        date_from: '2026-01-01',
        date_to: '2026-01-31',
      },
      'January funnel',
    );
    expect(lines).toEqual({ Steps: 'Signed up → purchase', Range: 'Jan 1, 2026 – Jan 31, 2026' });
  });
});
