import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { cohortEndpoints } from '@/contract/cohorts';
import { HEDGEBOX, override, renderApp, setupTestApi, slowDown } from '@testing';

const api = setupTestApi();

let projectId: number;
beforeEach(async () => {
  const project = api()
    .store.db.prepare(
      'SELECT p.id, p.api_token FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id',
    )
    .get(HEDGEBOX) as { id: number; api_token: string };
  projectId = project.id;
  // Two persons with properties: alice (pro) bought twice, bob (free) looked around.
  const identify = (id: string, set: Record<string, unknown>) => ({
    event: '$identify',
    distinct_id: id,
    properties: { $set: set },
  });
  await api().call('POST', '/batch/', {
    api_key: project.api_token,
    batch: [
      identify('alice', { email: 'alice@example.com', plan: 'pro' }),
      identify('bob', { plan: 'free' }),
      { event: 'purchase', distinct_id: 'alice' },
      { event: 'purchase', distinct_id: 'alice' },
      { event: '$pageview', distinct_id: 'bob' },
    ],
  });
});

describe('cohorts', () => {
  it('creates a static cohort from an uploaded CSV and shows its persons; deleting it leaves the list', async () => {
    const { user } = renderApp(`/projects/${projectId}/cohorts`, { apiKey: api().demoKey });
    expect(await screen.findByText('No cohorts yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New cohort' }));
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Early <b>adopters</b>');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'static');
    await user.upload(
      screen.getByLabelText('CSV file'),
      new File(['distinct_id\nalice@example.com\nbob\nnobody\n'], 'people.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: 'Save cohort' }));

    // The name is text, never markup.
    expect(await screen.findByRole('heading', { name: 'Early <b>adopters</b>', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('2 persons')).toBeInTheDocument();
    const persons = await screen.findByRole('table', { name: /Persons of/ });
    // Each person's name leads to its page.
    expect(within(persons).getByRole('link', { name: 'alice@example.com' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`^/projects/${projectId}/persons/[0-9a-f-]{36}$`)),
    );
    expect(within(persons).getAllByText('bob')).toHaveLength(2); // its name and its distinct id

    await user.click(screen.getByRole('button', { name: 'Delete cohort' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No cohorts yet')).toBeInTheDocument();
  });

  it('creates a dynamic cohort from criteria, and puts a refused window on the criterion it names', async () => {
    const { user } = renderApp(`/projects/${projectId}/cohorts/new`, { apiKey: api().demoKey });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Buyers');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Criterion 1: kind' }), 'performed');
    await user.type(screen.getByRole('textbox', { name: 'Criterion 1: event' }), 'purchase');
    const count = screen.getByRole('textbox', { name: 'Criterion 1: at least (times)' });
    await user.clear(count);
    await user.type(count, '2');
    const within_ = screen.getByRole('textbox', { name: 'Criterion 1: in the last' });
    await user.clear(within_);
    await user.type(within_, '0');
    await user.click(screen.getByRole('button', { name: 'Save cohort' }));
    await waitFor(() => expect(within_).toHaveAccessibleDescription(/greater than or equal to 1/));

    await user.clear(within_);
    await user.type(within_, '7');
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    await user.type(screen.getByRole('textbox', { name: 'Criterion 2: property' }), 'plan');
    await user.type(screen.getByRole('textbox', { name: 'Criterion 2: value' }), 'pro');
    await user.click(screen.getByRole('button', { name: 'Save cohort' }));
    expect(await screen.findByRole('heading', { name: 'Buyers', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('1 person')).toBeInTheDocument();
    expect(
      screen.getByText('did purchase at least 2 times in the last 7 days and plan equals pro'),
    ).toBeInTheDocument();

    await user.click(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Cohorts' }),
    );
    const table = await screen.findByRole('table', { name: /Cohorts/ });
    expect(within(table).getByRole('link', { name: 'Buyers' })).toBeInTheDocument();
    expect(within(table).getByText('Dynamic')).toBeInTheDocument();
  });

  it('recalculates a dynamic cohort with the events as they are now', async () => {
    const dynamic = await api().call<{ id: number }>('POST', `/api/projects/${projectId}/cohorts/`, {
      name: 'Viewers',
      filters: {
        properties: {
          type: 'AND',
          values: [
            { type: 'behavioral', key: '$pageview', value: 'performed_event', time_value: 7, time_interval: 'day' },
          ],
        },
      },
    });
    const { user } = renderApp(`/projects/${projectId}/cohorts/${dynamic.id}`, { apiKey: api().demoKey });
    expect(await screen.findByText('1 person')).toBeInTheDocument();
    const project = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').get(projectId) as {
      api_token: string;
    };
    await api().call('POST', '/batch/', {
      api_key: project.api_token,
      batch: [{ event: '$pageview', distinct_id: 'alice' }],
    });
    await user.click(screen.getByRole('button', { name: 'Recalculate' }));
    expect(await screen.findByText('2 persons')).toBeInTheDocument();
  });

  it('adds the persons of a CSV file to a static cohort', async () => {
    const fixed = await api().call<{ id: number }>('POST', `/api/projects/${projectId}/cohorts/`, {
      name: 'Fixed',
      is_static: true,
      csv: 'bob',
    });
    const { user } = renderApp(`/projects/${projectId}/cohorts/${fixed.id}`, { apiKey: api().demoKey });
    expect(await screen.findByText('1 person')).toBeInTheDocument();
    await user.upload(
      screen.getByLabelText('Add persons from a CSV file'),
      new File(['alice\n'], 'more.csv', { type: 'text/csv' }),
    );
    expect(await screen.findByText('2 persons')).toBeInTheDocument();
  });
});

const stored = () =>
  api()
    .store.db.prepare('SELECT name, description, filters, is_static, count FROM cohorts WHERE team_id = ? ORDER BY id')
    .all(projectId) as {
    name: string;
    description: string;
    filters: string | null;
    is_static: number;
    count: number | null;
  }[];

const refuse = (attr: string | null, detail: string) =>
  override(cohortEndpoints.create, () =>
    HttpResponse.json({ type: 'validation_error', code: 'invalid_input', detail, attr }, { status: 400 }),
  );

describe('new cohort', () => {
  it('shows a bad input on its field, focused, and sends nothing; a static cohort needs its file', async () => {
    const { user } = renderApp(`/projects/${projectId}/cohorts/new`, { apiKey: api().demoKey });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Buyers');
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Criterion 2: kind' }), 'not_performed');
    await user.type(screen.getByRole('textbox', { name: 'Criterion 2: event' }), 'purchase');
    const window2 = screen.getByRole('textbox', { name: 'Criterion 2: in the last' });
    await user.clear(window2);
    await user.type(window2, 'soon');
    await user.click(screen.getByRole('button', { name: 'Save cohort' }));

    // Criterion 1's property is blank: the first field in error has the focus.
    const property1 = screen.getByRole('textbox', { name: 'Criterion 1: property' });
    await waitFor(() => expect(property1).toHaveAccessibleDescription('This field may not be blank.'));
    expect(property1).toHaveFocus();
    expect(window2).toHaveAccessibleDescription('A valid integer is required.');
    expect(screen.getByRole('textbox', { name: 'Criterion 2: event' })).not.toHaveAttribute('aria-invalid');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'static');
    await user.click(screen.getByRole('button', { name: 'Save cohort' }));
    await waitFor(() =>
      expect(screen.getByLabelText('CSV file')).toHaveAccessibleDescription(
        /Choose a CSV file of distinct ids or emails\./,
      ),
    );
    expect(screen.getByLabelText('CSV file')).toHaveFocus();
    expect(stored()).toEqual([]);
  });

  it('puts a 400 on a criterion row’s field on that row and focuses it; one naming no field is the form’s error', async () => {
    // A production instance may refuse a window the reference server takes.
    refuse('filters__properties__values__1__time_value', 'Ensure this value is less than or equal to 90.');
    const { user } = renderApp(`/projects/${projectId}/cohorts/new`, { apiKey: api().demoKey });
    await user.type(await screen.findByRole('textbox', { name: 'Criterion 1: property' }), 'plan');
    await user.type(screen.getByRole('textbox', { name: 'Criterion 1: value' }), 'pro');
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Criterion 2: kind' }), 'performed');
    await user.type(screen.getByRole('textbox', { name: 'Criterion 2: event' }), 'purchase');
    await user.click(screen.getByRole('button', { name: 'Save cohort' }));

    const window2 = screen.getByRole('textbox', { name: 'Criterion 2: in the last' });
    await waitFor(() => expect(window2).toHaveAccessibleDescription('Ensure this value is less than or equal to 90.'));
    expect(window2).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Criterion 1: property' })).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Save cohort' })).toBeEnabled();

    refuse('filters__properties', 'Criteria of this kind are not enabled for this project.');
    await user.click(screen.getByRole('button', { name: 'Save cohort' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Criteria of this kind are not enabled for this project.',
    );
    expect(window2).not.toHaveAttribute('aria-invalid');
    expect(stored()).toEqual([]);
  });

  it('creates a dynamic cohort matching any criterion, after one is removed, with the keyboard', async () => {
    const { user, router } = renderApp(`/projects/${projectId}/cohorts/new`, { apiKey: api().demoKey });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Pro or free');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Everyone with a plan');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Persons who match' }), 'OR');
    await user.type(screen.getByRole('textbox', { name: 'Criterion 1: property' }), 'plan');
    await user.type(screen.getByRole('textbox', { name: 'Criterion 1: value' }), 'pro');
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    await user.type(screen.getByRole('textbox', { name: 'Criterion 2: property' }), 'nothing');
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    await user.type(screen.getByRole('textbox', { name: 'Criterion 3: property' }), 'plan');
    await user.type(screen.getByRole('textbox', { name: 'Criterion 3: value' }), 'free');
    await user.click(screen.getByRole('button', { name: 'Remove criterion 2' }));
    expect(screen.getByRole('textbox', { name: 'Criterion 2: value' })).toHaveValue('free');
    // Enter in a field submits.
    await user.type(screen.getByRole('textbox', { name: 'Criterion 2: value' }), '{Enter}');

    expect(await screen.findByRole('heading', { name: 'Pro or free', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toMatch(new RegExp(`^/projects/${projectId}/cohorts/\\d+$`));
    expect(screen.getByText('2 persons')).toBeInTheDocument();
    const [cohort] = stored();
    expect(cohort).toMatchObject({ name: 'Pro or free', description: 'Everyone with a plan', is_static: 0, count: 2 });
    expect(JSON.parse(cohort!.filters!)).toMatchObject({
      properties: {
        type: 'OR',
        values: [
          { key: 'plan', value: 'pro' },
          { key: 'plan', value: 'free' },
        ],
      },
    });
  });

  it('creates a static cohort from a CSV, showing “Saving…” while it is sent', async () => {
    slowDown(cohortEndpoints.create, 300);
    const { user } = renderApp(`/projects/${projectId}/cohorts/new`, { apiKey: api().demoKey });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Picked');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'static');
    await user.upload(
      screen.getByLabelText('CSV file'),
      new File(['alice@example.com\n'], 'people.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: 'Save cohort' }));
    expect(await screen.findByRole('button', { name: 'Saving…' })).toBeDisabled();
    expect(await screen.findByRole('heading', { name: 'Picked', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('1 person')).toBeInTheDocument();
    expect(stored()).toMatchObject([{ name: 'Picked', is_static: 1, count: 1 }]);
  });
});
