import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const SLOW = { timeout: 8000 };
const TREND_URL = '/projects/1/insights/new/trends';

describe('builder result before the first chart', { timeout: 30_000 }, () => {
  it('a link whose first request the server refuses names the field and says no chart is coming, then draws once it is fixed', async () => {
    // "A *" passes the client's check of the formula; the server answers 400 with attr "formula".
    const search = new URLSearchParams({
      events: JSON.stringify([{ id: '$pageview', name: '$pageview', type: 'events', math: 'total' }]),
      formula: JSON.stringify('A *'),
    });
    const { user } = renderApp(`${TREND_URL}?${search}`, { apiKey: api().demoKey });
    const formula = await screen.findByRole('textbox', { name: 'Formula' }, SLOW);
    await waitFor(() => expect(formula).toHaveAttribute('aria-invalid', 'true'), SLOW);
    expect(screen.getByRole('alert')).toHaveTextContent(/not updated until this is fixed/);
    // Nothing is loading: no busy skeleton that would never end, but words saying why there is no chart.
    expect(screen.queryByLabelText('Computing the result')).toBeNull();
    expect(screen.getByText(/No chart yet: it is drawn once the settings above are accepted/)).toBeInTheDocument();

    await user.clear(formula);
    expect(await screen.findByRole('table', { name: 'New trend: data' }, SLOW)).toBeInTheDocument();
    expect(screen.queryByText(/No chart yet/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a chart held back by settings that cannot be sent says so, and is not "Updating…"', async () => {
    const { user } = renderApp(TREND_URL, { apiKey: api().demoKey });
    expect(await screen.findByRole('table', { name: 'New trend: data' }, SLOW)).toBeInTheDocument();
    // One series: "A / C" names a series there is not (the client's own check: nothing is sent).
    await user.type(screen.getByRole('textbox', { name: 'Formula' }), 'A / C');
    await user.tab();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/not updated until this is fixed/), SLOW);
    expect(await screen.findByText('Not updated', undefined, SLOW)).toHaveAttribute('role', 'status');
    expect(screen.queryByText('Updating…')).toBeNull();
    expect(screen.getByRole('table', { name: 'New trend: data' })).toBeInTheDocument();
  });

  it('while the first request is on its way, the result area is busy', async () => {
    renderApp(TREND_URL, { apiKey: api().demoKey });
    expect(await screen.findByLabelText('Computing the result', undefined, SLOW)).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText(/No chart yet/)).toBeNull();
  });
});
