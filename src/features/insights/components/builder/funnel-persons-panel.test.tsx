import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { encodeAnalyticsQuery } from '@/contract/analytics';
import type { FunnelParamsInput } from '@/contract/analytics-params';
import { setupTestApi } from '@testing';
import { resetCredentialsStore, setCredentials } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';
import { FunnelPersonsPanel } from './funnel-persons-panel';

const api = setupTestApi();
const PROJECT = 1;

/** 30 persons visit; the first 12 of them sign up afterwards (so 18 drop off before step 2). */
async function ingestFunnel() {
  const token = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').pluck().get(PROJECT) as string;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const id = (i: number) => `fp-${String(i).padStart(2, '0')}`;
  const batch = [
    ...Array.from({ length: 30 }, (_, i) => ({ event: 'fp visit', distinct_id: id(i + 1), timestamp: at(60) })),
    ...Array.from({ length: 12 }, (_, i) => ({ event: 'fp signup', distinct_id: id(i + 1), timestamp: at(30) })),
  ];
  await api().call('POST', '/batch/', { api_key: token, batch });
}

const params: FunnelParamsInput = {
  events: [
    { id: 'fp visit', type: 'events', order: 0 },
    { id: 'fp signup', type: 'events', order: 1 },
  ],
  date_from: '-7d',
};

interface Listing {
  results: [{ people: Array<{ name: string }> }];
  next: string | null;
}
const listed = async (step: number, offset = 0) => {
  const query = new URLSearchParams({
    ...encodeAnalyticsQuery(params),
    funnel_step: String(step),
    limit: '25',
    offset: String(offset),
  });
  const body = await api().call<Listing>('GET', `/api/projects/${PROJECT}/persons/funnel/?${query.toString()}`);
  return body.results[0].people.map((p) => p.name);
};

function Harness({ dropped, named = true }: { dropped: boolean; named?: boolean }) {
  const [target, setTarget] = useState<{ step: number; dropped: boolean } | null>(null);
  return (
    <>
      <button type="button" onClick={() => setTarget({ step: 2, dropped })}>
        Open step 2
      </button>
      <FunnelPersonsPanel
        projectId={PROJECT}
        params={params}
        target={target}
        {...(named ? { stepName: 'Sign up' } : {})}
        onClose={() => setTarget(null)}
      />
    </>
  );
}

/** The panel inside a router, as in the app: each person's name links to the person's page. */
function inRouter(ui: ReactNode) {
  return (
    <RouterProvider
      router={createRouter({ routeTree: createRootRoute({ component: () => ui }), history: createMemoryHistory() })}
    />
  );
}

function renderPanel(dropped: boolean, key = api().demoKey, named = true) {
  resetCredentialsStore();
  setCredentials({ baseUrl: window.location.origin, key }, false);
  const client = createQueryClient({ onUnauthorized: () => undefined });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>{inRouter(<Harness dropped={dropped} named={named} />)}</QueryClientProvider>,
  );
  return user;
}

const rowNames = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('rowheader')
    .map((c) => c.textContent);

describe('funnel persons panel', () => {
  it('lists exactly the persons who converted at a step, as the API does', async () => {
    await ingestFunnel();
    const user = renderPanel(false);
    await user.click(await screen.findByRole('button', { name: 'Open step 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Persons who converted at step 2: Sign up' });
    await within(dialog).findByRole('table');
    const expected = await listed(2);
    expect(expected).toHaveLength(12);
    expect(rowNames(dialog)).toEqual(expected);
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeDisabled();
    // Each name leads to that person's page.
    const [first] = (
      await api().call<{ results: [{ people: Array<{ uuid: string; name: string }> }] }>(
        'GET',
        `/api/projects/${PROJECT}/persons/funnel/?${new URLSearchParams({ ...encodeAnalyticsQuery(params), funnel_step: '2', limit: '1' }).toString()}`,
      )
    ).results[0].people;
    expect(within(dialog).getByRole('link', { name: first!.name })).toHaveAttribute(
      'href',
      `/projects/${PROJECT}/persons/${first!.uuid}`,
    );
  });

  it('lists the persons who dropped off before a step', async () => {
    await ingestFunnel();
    // Without a name from the page, the step's own name (its event) is the title's.
    const user = renderPanel(true, api().demoKey, false);
    await user.click(await screen.findByRole('button', { name: 'Open step 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Persons who dropped off before step 2: fp signup' });
    await within(dialog).findByRole('table');
    // The 18 visitors who never signed up, none of those who did.
    expect(rowNames(dialog)).toEqual(await listed(-2));
    expect(rowNames(dialog)).toHaveLength(18);
    expect(rowNames(dialog)).not.toContain('fp-01');
  });

  it('pages with Next and Previous, and Escape closes it and gives focus back', async () => {
    await ingestFunnel();
    resetCredentialsStore();
    setCredentials({ baseUrl: window.location.origin, key: api().demoKey }, false);
    const client = createQueryClient({ onUnauthorized: () => undefined });
    const user = userEvent.setup();
    function StepOne() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open step 1
          </button>
          <FunnelPersonsPanel
            projectId={PROJECT}
            params={params}
            target={open ? { step: 1, dropped: false } : null}
            stepName="fp visit"
            onClose={() => setOpen(false)}
          />
        </>
      );
    }
    render(<QueryClientProvider client={client}>{inRouter(<StepOne />)}</QueryClientProvider>);
    const opener = await screen.findByRole('button', { name: 'Open step 1' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Persons who converted at step 1: fp visit' });
    await within(dialog).findByRole('table');
    expect(rowNames(dialog)).toEqual(await listed(1, 0));
    expect(within(dialog).getByText('Persons 1–25')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(dialog).getByText('Persons 26–30')).toBeInTheDocument());
    await waitFor(async () => expect(rowNames(dialog)).toEqual(await listed(1, 25)));
    // The pressed button is disabled at the last page: the keyboard is moved to the other one.
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Previous' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).getByText('Persons 1–25')).toBeInTheDocument());
    expect(within(dialog).getByRole('button', { name: 'Next' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });

  it('lists the persons of one breakdown value', async () => {
    const token = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').pluck().get(PROJECT) as string;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    // fb-1..6 visit, with Chrome for the odd ones; fb-1..4 sign up: Chrome converted = fb-1, fb-3.
    const batch = [1, 2, 3, 4, 5, 6].flatMap((i) => [
      {
        event: 'fp visit',
        distinct_id: `fb-${i}`,
        timestamp: at(60),
        properties: { $browser: i % 2 ? 'Chrome' : 'Safari' },
      },
      ...(i <= 4
        ? [
            {
              event: 'fp signup',
              distinct_id: `fb-${i}`,
              timestamp: at(30),
              properties: { $browser: i % 2 ? 'Chrome' : 'Safari' },
            },
          ]
        : []),
    ]);
    await api().call('POST', '/batch/', { api_key: token, batch });
    const byBrowser: FunnelParamsInput = { ...params, breakdown: '$browser', breakdown_type: 'event' };
    resetCredentialsStore();
    setCredentials({ baseUrl: window.location.origin, key: api().demoKey }, false);
    render(
      <QueryClientProvider client={createQueryClient({ onUnauthorized: () => undefined })}>
        {inRouter(
          <FunnelPersonsPanel
            projectId={PROJECT}
            params={byBrowser}
            target={{ step: 2, dropped: false, breakdownValue: 'Chrome' }}
            onClose={() => undefined}
          />,
        )}
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Persons who converted at step 2: fp signup' });
    expect(dialog).toHaveAccessibleDescription(/^Breakdown: Chrome\./);
    await within(dialog).findByRole('table');
    expect(rowNames(dialog).sort()).toEqual(['fb-1', 'fb-3']);
  });

  it('lists the persons of one combination of several breakdowns, named to the API as its list', async () => {
    const token = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').pluck().get(PROJECT) as string;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    // fm-1..6 visit (odd: Chrome; 1, 2: Mac, else Windows); fm-1..4 sign up: Chrome on Mac converted = fm-1.
    const props = (i: number) => ({ $browser: i % 2 ? 'Chrome' : 'Safari', $os: i <= 2 ? 'Mac' : 'Windows' });
    const batch = [1, 2, 3, 4, 5, 6].flatMap((i) => [
      { event: 'fp visit', distinct_id: `fm-${i}`, timestamp: at(60), properties: props(i) },
      ...(i <= 4 ? [{ event: 'fp signup', distinct_id: `fm-${i}`, timestamp: at(30), properties: props(i) }] : []),
    ]);
    await api().call('POST', '/batch/', { api_key: token, batch });
    const byBoth: FunnelParamsInput = { ...params, breakdowns: [{ property: '$browser' }, { property: '$os' }] };
    resetCredentialsStore();
    setCredentials({ baseUrl: window.location.origin, key: api().demoKey }, false);
    render(
      <QueryClientProvider client={createQueryClient({ onUnauthorized: () => undefined })}>
        {inRouter(
          <FunnelPersonsPanel
            projectId={PROJECT}
            params={byBoth}
            target={{ step: 2, dropped: false, breakdownValue: 'Chrome · Mac', breakdownKey: '["Chrome","Mac"]' }}
            onClose={() => undefined}
          />,
        )}
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Persons who converted at step 2: fp signup' });
    expect(dialog).toHaveAccessibleDescription(/^Breakdown: Chrome · Mac\./);
    await within(dialog).findByRole('table');
    expect(rowNames(dialog)).toEqual(['fm-1']);
  });

  it('lists the persons of one numeric bin, by the label the funnel gave it', async () => {
    const token = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').pluck().get(PROJECT) as string;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    // fn-1..4 visit with amounts 10, 15, 25, 30 (two bins: 10–20 and 20–30); fn-1 and fn-3 sign up.
    const amounts = [10, 15, 25, 30];
    const batch = amounts.flatMap((amount, i) => [
      { event: 'fn visit', distinct_id: `fn-${i + 1}`, timestamp: at(60), properties: { amount } },
      ...(i % 2 === 0 ? [{ event: 'fn signup', distinct_id: `fn-${i + 1}`, timestamp: at(30) }] : []),
    ]);
    await api().call('POST', '/batch/', { api_key: token, batch });
    const binned: FunnelParamsInput = {
      events: [
        { id: 'fn visit', type: 'events', order: 0 },
        { id: 'fn signup', type: 'events', order: 1 },
      ],
      date_from: '-7d',
      breakdown: 'amount',
      breakdown_histogram_bin_count: 2,
    };
    const funnel = await api().call<{ result: Array<Array<{ breakdown_value: string[] | string; count: number }>> }>(
      'POST',
      `/api/projects/${PROJECT}/insights/funnel/`,
      binned,
    );
    const labels = funnel.result.map((steps) => String(steps[0]!.breakdown_value));
    const upper = labels.find((label) => label.startsWith('[20'))!;
    expect(upper).toMatch(/^\[20(\.0+)?,30\.01\]$/);
    resetCredentialsStore();
    setCredentials({ baseUrl: window.location.origin, key: api().demoKey }, false);
    render(
      <QueryClientProvider client={createQueryClient({ onUnauthorized: () => undefined })}>
        {inRouter(
          <FunnelPersonsPanel
            projectId={PROJECT}
            params={binned}
            target={{ step: 2, dropped: false, breakdownValue: upper }}
            onClose={() => undefined}
          />,
        )}
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Persons who converted at step 2: fn signup' });
    expect(dialog).toHaveAccessibleDescription(new RegExp(`^Breakdown: ${upper.replace(/[[\].]/g, '\\$&')}\\.`));
    await within(dialog).findByRole('table');
    expect(rowNames(dialog)).toEqual(['fn-3']);
  });

  it('says so when there is nobody', async () => {
    const user = renderPanel(false);
    await user.click(await screen.findByRole('button', { name: 'Open step 2' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('No persons here for this date range.')).toBeInTheDocument();
  });

  it('says why the persons could not be loaded (a key without insight:read)', async () => {
    const user = renderPanel(false, api().makeKey(['organization:read']));
    await user.click(await screen.findByRole('button', { name: 'Open step 2' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      /The persons could not be loaded\. .*insight:read/,
    );
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('Download CSV saves every person of the step, not only the page shown', async () => {
    await ingestFunnel();
    // 20 more visitors who never sign up: 38 dropped off, more than a page.
    const token = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').pluck().get(PROJECT) as string;
    const at = new Date(Date.now() - 60 * 60_000).toISOString();
    await api().call('POST', '/batch/', {
      api_key: token,
      batch: Array.from({ length: 20 }, (_, i) => ({ event: 'fp visit', distinct_id: `fp-x${i}`, timestamp: at })),
    });
    // jsdom has no object URLs and does not download: record the Blob and the anchor clicked.
    const blobs: Blob[] = [];
    URL.createObjectURL = (blob: Blob | MediaSource) => (blobs.push(blob as Blob), 'blob:persons-test');
    URL.revokeObjectURL = () => {};
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    try {
      const user = renderPanel(true);
      await user.click(await screen.findByRole('button', { name: 'Open step 2' }));
      const dialog = await screen.findByRole('dialog');
      await within(dialog).findByRole('table');
      expect(rowNames(dialog)).toHaveLength(25);
      await user.click(within(dialog).getByRole('button', { name: 'Download CSV' }));
      await waitFor(() => expect(blobs).toHaveLength(1));
      expect(clicked[0]).toMatch(/^Persons-who-dropped-off-before-step-2.*\.csv$/);
      const lines = (await blobs[0]!.text()).trim().split('\r\n');
      expect(lines[0]).toBe('Person,Email,Distinct IDs,First seen,Person ID');
      // All 38 who dropped off, as the API lists them.
      const names = [...(await listed(-2)), ...(await listed(-2, 25))];
      expect(names).toHaveLength(38);
      expect(
        lines
          .slice(1)
          .map((line) => line.split(',')[0])
          .sort(),
      ).toEqual(names.sort());
    } finally {
      click.mockRestore();
    }
  });

  it('lists the companies of a funnel aggregated by companies, by name (or key), and says how many converted', async () => {
    const token = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').pluck().get(PROJECT) as string;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const company = (key: string) => ({ $groups: { company: key } });
    // acme (two persons) and initech sign up after visiting; globex only visits; a visit without a company counts for none.
    await api().call('POST', '/batch/', {
      api_key: token,
      batch: [
        {
          event: '$groupidentify',
          distinct_id: 'server',
          timestamp: at(120),
          properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme Inc' } },
        },
        { event: 'fg visit', distinct_id: 'fg-ann', timestamp: at(60), properties: company('acme') },
        { event: 'fg visit', distinct_id: 'fg-bob', timestamp: at(60), properties: company('acme') },
        { event: 'fg signup', distinct_id: 'fg-bob', timestamp: at(30), properties: company('acme') },
        { event: 'fg visit', distinct_id: 'fg-cat', timestamp: at(60), properties: company('globex') },
        { event: 'fg visit', distinct_id: 'fg-dan', timestamp: at(60), properties: company('initech') },
        { event: 'fg signup', distinct_id: 'fg-dan', timestamp: at(30), properties: company('initech') },
        { event: 'fg visit', distinct_id: 'fg-eve', timestamp: at(60) },
        { event: 'fg signup', distinct_id: 'fg-eve', timestamp: at(30) },
      ],
    });
    const types = await api().call<Array<{ group_type: string; group_type_index: number }>>(
      'GET',
      `/api/projects/${PROJECT}/groups_types/`,
    );
    const index = types.find((t) => t.group_type === 'company')!.group_type_index;
    const byCompany: FunnelParamsInput = {
      events: [
        { id: 'fg visit', type: 'events', order: 0 },
        { id: 'fg signup', type: 'events', order: 1 },
      ],
      date_from: '-7d',
      aggregation_group_type_index: index,
    };
    resetCredentialsStore();
    setCredentials({ baseUrl: window.location.origin, key: api().demoKey }, false);
    const open = (dropped: boolean) =>
      render(
        <QueryClientProvider client={createQueryClient({ onUnauthorized: () => undefined })}>
          {inRouter(
            <FunnelPersonsPanel
              projectId={PROJECT}
              params={byCompany}
              target={{ step: 2, dropped }}
              stepName="Sign up"
              onClose={() => undefined}
            />,
          )}
        </QueryClientProvider>,
      );
    open(false);
    const dialog = await screen.findByRole('dialog', { name: 'Companies that converted at step 2: Sign up' });
    expect(dialog).toHaveAccessibleDescription('Each company once, by name (or key).');
    await within(dialog).findByRole('table');
    // By key: acme (named), initech (no name: its key).
    expect(rowNames(dialog)).toEqual(['Acme Inc', 'initech']);
    expect(
      within(dialog)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .filter((t) => t === 'acme' || t === 'initech'),
    ).toEqual(['acme', 'initech']);
    expect(within(dialog).getByText('2 companies converted')).toBeInTheDocument();
    expect(within(dialog).queryByRole('link')).not.toBeInTheDocument();

    cleanup();
    open(true);
    const dropped = await screen.findByRole('dialog', { name: 'Companies that dropped off before step 2: Sign up' });
    await waitFor(() => expect(rowNames(dropped)).toEqual(['globex']));
    expect(within(dropped).getByText('1 company dropped off')).toBeInTheDocument();
  });
});
