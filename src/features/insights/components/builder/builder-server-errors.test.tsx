// The reference server's own refusals (what the contract lets through and the engine cannot do)
// land beside the control they name. No handler here is faked: every 400 is the server's.
import { defaultStringifySearch } from '@tanstack/react-router';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mswServer, renderApp, setupTestApi } from '@testing';

// jsdom has no scrollIntoView; cmdk (the pickers' lists) calls it on the active item.
if (typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = () => {};

const api = setupTestApi();
const PROJECT = 1;
const SLOW = { timeout: 8000 };

interface Answered {
  body: Record<string, unknown>;
  status: number;
  answer: Record<string, unknown>;
}

/** Every POST to an analysis endpoint (`trend`, `funnel`, `retention`), with the server's status and answer, in the order answered. */
function recordAnswers(endpoint: string): Answered[] {
  const seen: Answered[] = [];
  const bodies = new Map<string, Promise<Record<string, unknown>>>();
  const ours = (request: Request) =>
    request.method === 'POST' && new URL(request.url).pathname.endsWith(`/insights/${endpoint}/`);
  mswServer.events.on('request:start', ({ request, requestId }) => {
    if (ours(request)) bodies.set(requestId, request.clone().json() as Promise<Record<string, unknown>>);
  });
  mswServer.events.on('response:mocked', ({ request, requestId, response }) => {
    const body = bodies.get(requestId);
    if (!ours(request) || !body) return;
    void Promise.all([body, response.clone().json() as Promise<Record<string, unknown>>]).then(([sent, answer]) => {
      seen.push({ body: sent, status: response.status, answer });
    });
  });
  return seen;
}

/** The builder of `kind` opened at this state (as a link or a saved insight's URL would). */
const builderUrl = (kind: string, state: Record<string, unknown>) =>
  `/projects/${PROJECT}/insights/new/${kind}${defaultStringifySearch(state)}`;

/** Whether `actual` has everything `expected` has (toMatchObject's rule). */
function matches(actual: unknown, expected: object): boolean {
  try {
    expect(actual).toMatchObject(expected);
    return true;
  } catch {
    return false;
  }
}

/** The server's answer to the latest request sent with (at least) `body`, once it has come. */
async function answerTo(seen: Answered[], body: Record<string, unknown>): Promise<Answered> {
  let found: Answered | undefined;
  await waitFor(() => {
    found = seen.findLast((a) => matches(a.body, body));
    expect(found, `no answer yet to ${JSON.stringify(body)}`).toBeDefined();
  }, SLOW);
  return found!;
}

/** The server's 400 to the request sent with `body`: it names `attr`; its words. */
async function refusal(seen: Answered[], body: Record<string, unknown>, attr: string): Promise<string> {
  const answer = await answerTo(seen, body);
  expect(answer).toMatchObject({ status: 400, answer: { attr } });
  return String(answer.answer.detail);
}

const accepted = async (seen: Answered[], body: Record<string, unknown>) =>
  expect((await answerTo(seen, body)).status).toBe(200);

type User = ReturnType<typeof renderApp>['user'];

/** A new trend's builder, once its first answer has come. */
async function freshTrends() {
  const seen = recordAnswers('trend');
  const { user } = renderApp(builderUrl('trends', {}), { apiKey: api().demoKey });
  await accepted(seen, { events: [{ id: '$pageview' }] });
  return { seen, user };
}

/** In the open property picker: the list of `kind`, then its option `option`. */
async function pickFrom(user: User, kind: string, option: string | RegExp) {
  await user.click(
    within(await screen.findByRole('group', { name: 'Whose properties' })).getByRole('button', { name: kind }),
  );
  await user.click(
    await within(await screen.findByRole('listbox', { name: kind })).findByRole('option', { name: option }),
  );
}

/** `text` in the expression field: the request with `body` is refused on `attr`, and its words show under the field. */
async function refusedUnder(
  user: User,
  seen: Answered[],
  field: HTMLElement,
  text: string,
  body: Record<string, unknown>,
  attr: string,
): Promise<string> {
  await user.clear(field);
  await user.paste(text);
  const detail = await refusal(seen, body, attr);
  await waitFor(() => expect(field).toHaveAccessibleDescription(detail));
  expect(field).toBeInvalid();
  return detail;
}

const chromeRegex = { type: 'AND', values: [{ key: '$browser', type: 'event', operator: 'regex', value: 'Chrome' }] };

describe("the server's 400s beside their control", { timeout: 30_000 }, () => {
  it('trends: a breakdown limit the server cannot compute over two years, at "Show top"', async () => {
    const seen = recordAnswers('trend');
    const { user } = renderApp(
      builderUrl('trends', { date_from: '-730d', breakdown: '$browser', breakdown_type: 'event' }),
      { apiKey: api().demoKey },
    );
    await accepted(seen, { breakdown: '$browser', date_from: '-730d' });
    const limit = await screen.findByRole('spinbutton', { name: 'Show top' });
    expect(limit).toHaveValue(25);
    expect(limit).not.toBeInvalid();

    // 1,000 values × 731 days is more than the server computes in one trend: the contract takes
    // the number (1 to 1,000), the server refuses it on breakdown_limit.
    await user.clear(limit);
    await user.type(limit, '1000');
    const detail = await refusal(seen, { breakdown_limit: 1000 }, 'breakdown_limit');
    expect(detail).toMatch(/lower the breakdown limit/);
    await waitFor(() => expect(limit).toHaveAccessibleDescription(detail));
    expect(limit).toBeInvalid();
    // Only there: the breakdown's key is not blamed.
    expect(screen.getByRole('button', { name: 'Breakdown by: Browser' })).not.toHaveAttribute('aria-describedby');

    // A limit the server can compute clears it.
    await user.clear(limit);
    await user.type(limit, '50');
    await accepted(seen, { breakdown_limit: 50 });
    await waitFor(() => expect(limit).not.toBeInvalid());
    expect(screen.queryByText(detail)).not.toBeInTheDocument();
  });

  it('trends: a breakdown by a cohort the project does not have (from another project\'s link) is refused at "Breakdown by"; a property breakdown replaces it', async () => {
    const seen = recordAnswers('trend');
    const { user } = renderApp(builderUrl('trends', { breakdown: [999], breakdown_type: 'cohort' }), {
      apiKey: api().demoKey,
    });
    const detail = await refusal(seen, { breakdown: [999], breakdown_type: 'cohort' }, 'breakdown');
    expect(detail).toMatch(/999/);
    const picker = await screen.findByRole('button', { name: /^Breakdown by: .*999/ });
    await waitFor(() => expect(picker).toHaveAccessibleDescription(detail));
    expect(picker).toHaveClass('border-red-600');

    await user.click(picker);
    // The picker opens on the kind it holds (cohorts): back to the event's properties.
    await user.click(
      within(await screen.findByRole('group', { name: 'Whose properties' })).getByRole('button', {
        name: 'Event properties',
      }),
    );
    await user.type(await screen.findByRole('combobox', { name: 'Search properties' }), '$browser');
    await user.click(await screen.findByRole('option', { name: /\$browser/ }));
    await accepted(seen, { breakdown: '$browser', breakdown_type: 'event' });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Breakdown by: Browser' })).not.toHaveAttribute('aria-describedby'),
    );
    expect(screen.queryByText(detail)).not.toBeInTheDocument();
  });

  it("trends: a regex the database cannot run (a lookahead, valid in JavaScript) is refused at that filter's value", async () => {
    const seen = recordAnswers('trend');
    const { user } = renderApp(builderUrl('trends', { properties: chromeRegex }), { apiKey: api().demoKey });
    await accepted(seen, { properties: chromeRegex });
    const value = within(screen.getByRole('group', { name: 'Filters' })).getByRole('textbox', {
      name: 'Filter 1 value',
    });

    await user.type(value, '(?!Mobile)');
    const detail = await refusal(
      seen,
      { properties: { type: 'AND', values: [{ operator: 'regex', value: 'Chrome(?!Mobile)' }] } },
      'properties__values__0__value',
    );
    expect(detail).toBe('Enter a valid regular expression.');
    await waitFor(() => expect(value).toHaveAccessibleDescription(detail));
    expect(value).toBeInvalid();

    await user.clear(value);
    await user.type(value, 'Chrom.');
    await accepted(seen, { properties: { type: 'AND', values: [{ value: 'Chrom.' }] } });
    await waitFor(() => expect(value).not.toBeInvalid());
    expect(value).not.toHaveAccessibleDescription(detail);
  });

  it("funnels: a step filter the database cannot run is refused at that step's filter, not at the funnel's filters", async () => {
    const seen = recordAnswers('funnel');
    const steps = [
      { id: '$pageview', name: '$pageview', type: 'events', order: 0, properties: chromeRegex },
      { id: 'user signed up', name: 'user signed up', type: 'events', order: 1 },
    ];
    const { user } = renderApp(builderUrl('funnels', { events: steps, properties: chromeRegex }), {
      apiKey: api().demoKey,
    });
    await accepted(seen, { events: steps, properties: chromeRegex });
    const step1 = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem')[0]!;
    const stepValue = within(step1).getByRole('textbox', { name: 'Filter 1 value' });
    const globalValue = within(screen.getByRole('group', { name: 'Filters' })).getByRole('textbox', {
      name: 'Filter 1 value',
    });

    await user.type(stepValue, '(?<=x)');
    const sent = {
      events: [{ properties: { type: 'AND', values: [{ value: 'Chrome(?<=x)' }] } }, { id: 'user signed up' }],
    };
    const detail = await refusal(seen, sent, 'events__0__properties__values__0__value');
    expect(detail).toBe('Enter a valid regular expression.');
    await waitFor(() => expect(stepValue).toHaveAccessibleDescription(detail));
    expect(stepValue).toBeInvalid();
    // The funnel's own filter sits at the same place in its group, and is not blamed.
    expect(globalValue).not.toBeInvalid();
    expect(globalValue).not.toHaveAccessibleDescription(detail);
  });

  it('retention: an end date before the year 1000 passes the contract and is refused at "Last period ends"', async () => {
    const seen = recordAnswers('retention');
    const { user } = renderApp(builderUrl('retention', { date_to: '2024-03-31' }), { apiKey: api().demoKey });
    await accepted(seen, { date_to: '2024-03-31' });
    const end = screen.getByLabelText('Last period ends');
    expect(end).toHaveAccessibleDescription(/Empty: now/);

    await user.clear(end);
    await user.type(end, '0999-12-31');
    const detail = await refusal(seen, { date_to: '0999-12-31' }, 'date_to');
    expect(detail).toBe('Enter a valid date.');
    await waitFor(() => expect(end).toHaveAccessibleDescription(detail));
  });

  it('trends: a HogQL filter from the property picker is sent as its expression alone; a refused one shows its error under the field', async () => {
    const { seen, user } = await freshTrends();
    const filters = screen.getByRole('group', { name: 'Filters' });
    await user.click(within(filters).getByRole('button', { name: 'Add filter to filters' }));
    await pickFrom(user, 'HogQL expression', 'HogQL expression');
    const field = within(filters).getByRole('textbox', { name: 'Filter 1 HogQL expression' });
    expect(field).toHaveClass('font-mono');
    expect(within(filters).queryByRole('combobox', { name: 'Filter 1 operator' })).not.toBeInTheDocument();

    await user.click(field);
    await user.paste("properties.$browser = 'Chrome'");
    const good = { type: 'AND', values: [{ type: 'hogql', key: "properties.$browser = 'Chrome'" }] };
    await accepted(seen, { properties: good });
    expect(seen.findLast((a) => matches(a.body, { properties: good }))!.body.properties).toEqual(good);

    const detail = await refusedUnder(
      user,
      seen,
      field,
      'nosuchfn(event)',
      { properties: { values: [{ type: 'hogql', key: 'nosuchfn(event)' }] } },
      'properties__values__0__key',
    );
    expect(detail).toMatch(/nosuchfn/);
  });

  it('trends: a session property filter and breakdown, and a HogQL breakdown whose refusal shows under its field', async () => {
    const { seen, user } = await freshTrends();
    const filters = screen.getByRole('group', { name: 'Filters' });
    await user.click(within(filters).getByRole('button', { name: 'Add filter to filters' }));
    await pickFrom(user, 'Session properties', /\$session_duration/);
    // A duration is a number: the row starts at "greater than".
    expect(within(filters).getByRole('combobox', { name: 'Filter 1 operator' })).toHaveDisplayValue('greater than');
    await user.type(within(filters).getByRole('spinbutton', { name: 'Filter 1 value' }), '60');
    await accepted(seen, {
      properties: { type: 'AND', values: [{ type: 'session', key: '$session_duration', operator: 'gt', value: 60 }] },
    });

    await user.click(screen.getByRole('button', { name: 'Breakdown by: Add breakdown' }));
    await pickFrom(user, 'Session properties', /\$entry_current_url/);
    await accepted(seen, { breakdown: '$entry_current_url', breakdown_type: 'session' });

    await user.click(screen.getByRole('button', { name: /^Breakdown by: / }));
    await pickFrom(user, 'HogQL expression', 'HogQL expression');
    const field = screen.getByRole('textbox', { name: 'Breakdown HogQL expression' });
    await user.click(field);
    await user.paste('lower(properties.$browser)');
    await accepted(seen, { breakdown: 'lower(properties.$browser)', breakdown_type: 'hogql' });

    const detail = await refusedUnder(
      user,
      seen,
      field,
      'select 1',
      { breakdown: 'select 1', breakdown_type: 'hogql' },
      'breakdown',
    );
    expect(detail).toMatch(/select/i);
  });

  it('trends: a HogQL math asks for its expression; a refused one shows its error under the field', async () => {
    const { seen, user } = await freshTrends();
    expect(screen.queryByRole('textbox', { name: 'Series A HogQL expression' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Series A math' }), 'HogQL expression');
    const field = await screen.findByRole('textbox', { name: 'Series A HogQL expression' });
    await user.click(field);
    await user.paste('count() * 2');
    await accepted(seen, { events: [{ id: '$pageview', math: 'hogql', math_hogql: 'count() * 2' }] });

    await refusedUnder(
      user,
      seen,
      field,
      'count(',
      { events: [{ math: 'hogql', math_hogql: 'count(' }] },
      'events__0__math_hogql',
    );

    // Back to a count: the expression is dropped from the request.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Series A math' }), 'Total count');
    const back = await answerTo(seen, { events: [{ math: 'total' }] });
    expect(back.body.events).toEqual([expect.not.objectContaining({ math_hogql: expect.anything() })]);
  });
});
