import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { batchExportEndpoints, type BatchExport } from '@/contract/batch-exports';
import { NORTHWIND, override, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

const northwind = () => api().organizationId(NORTHWIND);

/** What the server stored for Northwind's exports (secrets included). */
function storedExports() {
  const { store } = api();
  const ids = store.db
    .prepare('SELECT id FROM batch_exports WHERE organization_id = ?')
    .pluck()
    .all(northwind()) as string[];
  // Through the repository: the file holds the configs sealed (encrypted at rest).
  return ids
    .map((id) => store.batchExports.get(id)!)
    .map((row) => ({ ...row, config: JSON.parse(row.destination_config) as Record<string, unknown> }));
}

describe('new batch export', () => {
  it('switches the config fields with the destination type, keeping what was typed for each', async () => {
    const { user } = renderApp(`/organizations/${northwind()}/batch-exports/new`, { apiKey: api().demoKey });
    const type = await screen.findByRole('combobox', { name: 'Destination type' });
    expect(type).toHaveValue('S3');
    await user.type(screen.getByLabelText('Bucket name'), 'my-bucket');
    expect(screen.getByLabelText('AWS secret access key')).toHaveAttribute('type', 'password');

    await user.selectOptions(type, 'HTTP');
    expect(screen.queryByLabelText('Bucket name')).not.toBeInTheDocument();
    expect(screen.getByLabelText('URL')).toBeInTheDocument();
    expect(screen.getByLabelText('Token')).toHaveAttribute('type', 'password');

    await user.selectOptions(type, 'Postgres');
    expect(screen.getByLabelText('Port')).toHaveValue(5432);
    await user.selectOptions(type, 'Redshift');
    expect(screen.getByLabelText('Port')).toHaveValue(5439);

    await user.selectOptions(type, 'S3');
    expect(screen.getByLabelText('Bucket name')).toHaveValue('my-bucket');
  });

  it('checks required config fields before sending, on the field', async () => {
    const { user } = renderApp(`/organizations/${northwind()}/batch-exports/new`, { apiKey: api().demoKey });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Destination type' }), 'HTTP');
    await user.type(screen.getByLabelText('Name'), 'Webhook');
    await user.type(screen.getByLabelText('URL'), 'not a url');
    await user.click(screen.getByRole('button', { name: 'Create batch export' }));
    await waitFor(() => expect(screen.getByLabelText('URL')).toHaveAccessibleDescription('Enter a valid URL.'));
    expect(screen.getByLabelText('Token')).toHaveAccessibleDescription('This field may not be blank.');
    expect(storedExports()).toHaveLength(0);
  });

  it('shows a server 400 on the field its attr names and keeps everything typed', async () => {
    // The reference server accepts any valid URL; a production instance may refuse a host.
    override(batchExportEndpoints.create, () =>
      HttpResponse.json(
        {
          type: 'validation_error',
          code: 'invalid_input',
          detail: 'This host does not accept exports.',
          attr: 'destination__config__url',
        },
        { status: 400 },
      ),
    );
    const { user } = renderApp(`/organizations/${northwind()}/batch-exports/new`, { apiKey: api().demoKey });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Destination type' }), 'HTTP');
    await user.type(screen.getByLabelText('Name'), 'Webhook');
    await user.type(screen.getByLabelText('URL'), 'https://hooks.example.com/in');
    await user.type(screen.getByLabelText('Token'), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Create batch export' }));

    const url = screen.getByLabelText('URL');
    await waitFor(() => expect(url).toHaveAccessibleDescription('This host does not accept exports.'));
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveValue('https://hooks.example.com/in');
    expect(screen.getByLabelText('Token')).toHaveValue('s3cret');
    expect(screen.getByLabelText('Name')).toHaveValue('Webhook');
  });

  it('creates an export and opens it', async () => {
    const { user } = renderApp(`/organizations/${northwind()}/batch-exports/new`, { apiKey: api().demoKey });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Destination type' }), 'HTTP');
    await user.type(screen.getByLabelText('Name'), 'Webhook');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Interval' }), 'day');
    await user.type(screen.getByLabelText('URL'), 'https://hooks.example.com/in');
    await user.type(screen.getByLabelText('Token'), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Create batch export' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhook' })).toBeInTheDocument();
    const [stored] = storedExports();
    expect(stored?.interval).toBe('day');
    expect(stored?.destination_type).toBe('HTTP');
    expect(stored?.config).toEqual({ url: 'https://hooks.example.com/in', token: 's3cret' });
  });

  it('Cancel with something typed asks before dropping it; with nothing typed it just goes', async () => {
    const { user, router } = renderApp(`/organizations/${northwind()}/batch-exports/new`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organizations/${northwind()}/batch-exports`));

    await router.navigate({ to: `/organizations/${northwind()}/batch-exports/new` });
    await user.type(await screen.findByLabelText('Name'), 'Half typed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(confirm).getByRole('button', { name: 'Stay' }));
    expect(screen.getByLabelText('Name')).toHaveValue('Half typed');
    expect(router.state.location.pathname).toBe(`/organizations/${northwind()}/batch-exports/new`);
  });
});

describe('edit batch export', () => {
  it('never prefills a secret, and a blank one keeps the stored value', async () => {
    const batchExport = await api().call<BatchExport>('POST', `/api/organizations/${northwind()}/batch_exports/`, {
      name: 'Hook',
      interval: 'hour',
      destination: { type: 'HTTP', config: { url: 'https://old.example.com', token: 'stored-token' } },
    });
    const { user } = renderApp(`/organizations/${northwind()}/batch-exports/${batchExport.id}/edit`, {
      apiKey: api().demoKey,
    });
    const token = await screen.findByLabelText('Token');
    expect(token).toHaveValue('');
    expect(token).toHaveAccessibleDescription('Leave blank to keep the stored value.');
    const url = screen.getByLabelText('URL');
    expect(url).toHaveValue('https://old.example.com');
    await user.clear(url);
    await user.type(url, 'https://new.example.com');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Hook' })).toBeInTheDocument();
    expect(storedExports()[0]?.config).toEqual({
      url: 'https://new.example.com',
      token: 'stored-token',
      include_events: null,
      exclude_events: null,
    });
  });
});

describe('test connection in the form', () => {
  it('shows each step with its outcome and keeps everything typed', async () => {
    const { user } = renderApp(`/organizations/${northwind()}/batch-exports/new`, { apiKey: api().demoKey });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Destination type' }), 'HTTP');
    await user.type(screen.getByLabelText('Name'), 'Webhook');
    // A private address this server was not told to allow: the guard refuses it.
    await user.type(screen.getByLabelText('URL'), 'http://10.20.30.40/in');
    await user.type(screen.getByLabelText('Token'), 's3cret');
    await user.type(screen.getByLabelText('Events to export'), '$pageview, signed_up');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));

    const steps = await screen.findByRole('list', { name: 'Connection test steps' });
    expect(within(steps).getAllByRole('listitem')).toHaveLength(1);
    expect(steps).toHaveTextContent(/^Failed: Send an empty batchRefused: /);
    // Told in a live region: heard without moving focus.
    expect(
      screen.getByText('Connection failed at “Send an empty batch”.').closest('[aria-live="polite"]'),
    ).toContainElement(steps);
    expect(screen.getByLabelText('URL')).toHaveValue('http://10.20.30.40/in');
    expect(screen.getByLabelText('Token')).toHaveValue('s3cret');
    expect(screen.getByLabelText('Name')).toHaveValue('Webhook');
    expect(screen.getByLabelText('Events to export')).toHaveValue('$pageview, signed_up');
    expect(storedExports()).toHaveLength(0);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Destination type' }), 'NoOp');
    expect(screen.queryByRole('list', { name: 'Connection test steps' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connection works: every step passed.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Connection test steps' })).toHaveTextContent(
      'Passed: Nothing to connect to',
    );
  });

  it("checks the destination's fields first, on the field, without sending", async () => {
    const { user } = renderApp(`/organizations/${northwind()}/batch-exports/new`, { apiKey: api().demoKey });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Destination type' }), 'HTTP');
    await user.type(screen.getByLabelText('URL'), 'not a url');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByLabelText('URL')).toHaveAccessibleDescription('Enter a valid URL.'));
    expect(screen.getByLabelText('URL')).toHaveFocus();
    // The name is not the destination's: testing does not ask for it.
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('list', { name: 'Connection test steps' })).not.toBeInTheDocument();
  });

  it('a list of events is saved as a list, and shown one per line when edited', async () => {
    const { user } = renderApp(`/organizations/${northwind()}/batch-exports/new`, { apiKey: api().demoKey });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Destination type' }), 'NoOp');
    await user.type(screen.getByLabelText('Name'), 'Filtered');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Destination type' }), 'HTTP');
    await user.type(screen.getByLabelText('URL'), 'https://hooks.example.com/in');
    await user.type(screen.getByLabelText('Token'), 't');
    await user.type(screen.getByLabelText('Events to leave out'), ' $autocapture ,, $pageleave{Enter}');
    await user.click(screen.getByRole('button', { name: 'Create batch export' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Filtered' })).toBeInTheDocument();
    expect(storedExports()[0]?.config.exclude_events).toEqual(['$autocapture', '$pageleave']);
    expect(storedExports()[0]?.config).not.toHaveProperty('include_events');
  });
});
