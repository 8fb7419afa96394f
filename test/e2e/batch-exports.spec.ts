import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiHeaders, expectNoViolations, signInWithDemoLink, uniqueName } from './fixtures';

/** The viewer's zone in these tests: not UTC, so times must really be converted. */
const TIME_ZONE = 'Europe/Paris';
test.use({ timezoneId: TIME_ZONE, locale: 'en-US' });

const HOUR = 3_600_000;
const headers = apiHeaders;

interface Org {
  id: string;
  teams: Array<{ id: number }>;
}

/** The seeded organization that has the demo batch exports. */
async function seededOrganization(request: APIRequestContext): Promise<Org> {
  const page = await (await request.get('/api/organizations/?limit=100', { headers: headers() })).json();
  for (const organization of page.results as Org[]) {
    const exports = await (
      await request.get(`/api/organizations/${organization.id}/batch_exports/`, { headers: headers() })
    ).json();
    if (exports.count > 0) return organization;
  }
  throw new Error('No organization with batch exports: is the server seeded?');
}

async function createExport(request: APIRequestContext, organizationId: string, body: Record<string, unknown>) {
  const response = await request.post(`/api/organizations/${organizationId}/batch_exports/`, {
    headers: headers(),
    data: body,
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; name: string };
}

/** `2024-03-05T14:00` in TIME_ZONE, as a datetime-local input takes it. */
function localInput(date: Date): string {
  const parts = new Intl.DateTimeFormat('sv-SE', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
  return parts.replace(' ', 'T');
}

test('pause an export from the list: it stays paused after a reload, then unpause it', async ({ page, request }) => {
  const organization = await seededOrganization(request);
  const name = uniqueName('E2E pause');
  const created = await createExport(request, organization.id, {
    name,
    interval: 'hour',
    destination: { type: 'NoOp', config: {} },
  });

  await signInWithDemoLink(page, `/organizations/${organization.id}/batch-exports?pageSize=100`);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  const toggle = row.getByRole('switch', { name: `Active: ${name}` });
  await expect(toggle).toBeChecked();
  await expect(row).toContainText('Active');

  await toggle.click();
  await expect(row).toContainText('Paused');
  await expect(toggle).not.toBeChecked();
  await expect
    .poll(
      async () =>
        (
          await (
            await request.get(`/api/organizations/${organization.id}/batch_exports/${created.id}/`, {
              headers: headers(),
            })
          ).json()
        ).paused,
    )
    .toBe(true);

  await page.reload();
  await expect(row).toContainText('Paused');
  await expect(toggle).not.toBeChecked();

  await toggle.click();
  await expect(row).toContainText('Active');
  await expect(toggle).toBeChecked();
  await page.reload();
  await expect(toggle).toBeChecked();
  await expect(row).toContainText('Active');
});

test('backfill the last three hours of an hourly export: the runs appear and complete', async ({ page, request }) => {
  const organization = await seededOrganization(request);
  const name = uniqueName('E2E backfill');
  const created = await createExport(request, organization.id, {
    name,
    interval: 'hour',
    destination: { type: 'NoOp', config: {} },
  });
  const end = new Date(Math.floor(Date.now() / HOUR) * HOUR);
  const start = new Date(end.getTime() - 3 * HOUR);

  await signInWithDemoLink(page, `/organizations/${organization.id}/batch-exports/${created.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible();

  await page.getByRole('button', { name: 'Backfill' }).click();
  const dialog = page.getByRole('dialog', { name: `Backfill ${name}` });
  await expect(page).toHaveURL(/backfill=true/);
  await dialog.getByLabel('Start').fill(localInput(start));
  await dialog.getByLabel('End').fill(localInput(end));
  await dialog.getByRole('button', { name: 'Start backfill' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/backfill=true/);

  const runs = page.getByRole('table', { name: /Runs, newest first/ });
  await expect(runs).toContainText(TIME_ZONE);
  const rows = runs.locator('tbody tr');
  await expect(rows).toHaveCount(3, { timeout: 20_000 });
  await expect(rows.filter({ hasText: 'Completed' })).toHaveCount(3, { timeout: 30_000 });

  // Interval starts shown in the viewer's zone, one per hour of the range.
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: TIME_ZONE,
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  for (let i = 0; i < 3; i++) {
    await expect(runs).toContainText(format.format(new Date(start.getTime() + i * HOUR)));
  }
});

test('a daily export backfills exactly the days picked, wherever the viewer is: days are UTC days', async ({
  page,
  request,
}) => {
  const organization = await seededOrganization(request);
  const name = uniqueName('E2E daily backfill');
  const created = await createExport(request, organization.id, {
    name,
    interval: 'day',
    destination: { type: 'NoOp', config: {} },
  });
  const DAY = 24 * HOUR;
  const today = Math.floor(Date.now() / DAY) * DAY;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  await signInWithDemoLink(page, `/organizations/${organization.id}/batch-exports/${created.id}`);
  await page.getByRole('button', { name: 'Backfill' }).click();
  const dialog = page.getByRole('dialog', { name: `Backfill ${name}` });
  await expect(dialog.getByText('Days start at midnight UTC')).toBeVisible();
  await dialog.getByLabel('Start').fill(day(today - 10 * DAY));
  await dialog.getByLabel('End').fill(day(today - 8 * DAY));
  await dialog.getByRole('button', { name: 'Start backfill' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Backfill started: 2 runs')).toBeVisible();

  const runs = await (
    await request.get(`/api/organizations/${organization.id}/batch_exports/${created.id}/runs/`, { headers: headers() })
  ).json();
  expect(
    (runs.results as { data_interval_start: string }[]).map((r) => Date.parse(r.data_interval_start)).sort(),
  ).toEqual([today - 10 * DAY, today - 9 * DAY]);
});

test('an HTTP export delivers the events to a receiver the test runs', async ({ page, request }) => {
  const received: Array<{ authorization: string | undefined; contentType: string | undefined; body: string }> = [];
  const receiver: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;

  try {
    const organization = await seededOrganization(request);
    const projectId = organization.teams[0]!.id;
    const project = await (await request.get(`/api/projects/${projectId}/`, { headers: headers() })).json();

    // Two events inside the previous whole hour, sent through the ingestion endpoint.
    const hourEnd = Math.floor(Date.now() / HOUR) * HOUR;
    const hourStart = hourEnd - HOUR;
    const event = `e2e_export_${Date.now().toString(36)}`;
    const ingest = await request.post('/batch/', {
      data: {
        api_key: project.api_token,
        batch: [1, 2].map((n) => ({
          event,
          distinct_id: `e2e-user-${n}`,
          timestamp: new Date(hourStart + n * 10 * 60_000).toISOString(),
          properties: { n },
        })),
      },
    });
    expect(ingest.ok(), await ingest.text()).toBe(true);

    const name = uniqueName('E2E webhook');
    await signInWithDemoLink(page, `/organizations/${organization.id}/batch-exports`);
    await page.getByRole('button', { name: 'New batch export' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New batch export' })).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Destination type').selectOption('HTTP');
    await page.getByLabel('URL').fill(`http://127.0.0.1:${port}/ingest`);
    await page.getByLabel('Token').fill('e2e-receiver-token');
    await page.getByLabel('Interval').selectOption('hour');
    await page.getByRole('button', { name: 'Create batch export' }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    // The token is never shown back.
    await expect(page.getByRole('region', { name: 'Configuration' })).toContainText('(hidden)');
    await expect(page.locator('body')).not.toContainText('e2e-receiver-token');

    await page.getByRole('button', { name: 'Backfill' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Start').fill(localInput(new Date(hourStart)));
    await dialog.getByLabel('End').fill(localInput(new Date(hourEnd)));
    await dialog.getByRole('button', { name: 'Start backfill' }).click();
    await expect(dialog).toBeHidden();

    // The run sends the hour's records, the demo's among them, 1,000 to a request: once it shows
    // as completed, every request has reached the receiver (the first may hold only one of ours).
    const runs = page.getByRole('table', { name: /Runs, newest first/ });
    const run = runs.locator('tbody tr').first();
    await expect(run).toContainText('Completed', { timeout: 30_000 });
    // The row's record count is the API's for that run (the demo's events and our two).
    const exportId = new URL(page.url()).pathname.split('/').at(-1)!;
    const apiRuns = await (
      await request.get(`/api/organizations/${organization.id}/batch_exports/${exportId}/runs/`, { headers: headers() })
    ).json();
    const completed = apiRuns.results[0].records_completed as number;
    expect(completed).toBeGreaterThanOrEqual(2);
    await expect(run.getByRole('cell', { name: completed.toLocaleString('en-US'), exact: true })).toBeVisible();
    const lines = received
      .flatMap((r) => r.body.split('\n'))
      .filter((line) => line.includes(event))
      .map((line) => JSON.parse(line) as { event?: string; distinct_id?: string });
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => line.distinct_id).sort()).toEqual(['e2e-user-1', 'e2e-user-2']);
    expect(received[0]!.authorization).toBe('Bearer e2e-receiver-token');
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('axe finds no violations on the list, detail, form and dialogs', async ({ page, request }) => {
  // Seven full axe runs: several seconds each on a loaded 2-core machine.
  test.slow();
  const organization = await seededOrganization(request);
  await signInWithDemoLink(page, `/organizations/${organization.id}/batch-exports`);
  await expect(page.getByRole('table', { name: 'Batch exports' })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(page.getByRole('group', { name: 'Selected batch exports' })).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole('button', { name: 'Clear selection' }).click();

  await page.getByRole('table', { name: 'Batch exports' }).getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Runs' })).toBeVisible();
  await expect(page.getByRole('table', { name: /Runs, newest first/ })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('tab', { name: 'Logs' }).click();
  await expect(page).toHaveURL(/tab=logs/);
  await expect(page.getByRole('table', { name: 'Log entries, newest first' })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'Backfill' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Delete batch export' })).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
  await expectNoViolations(page);

  await page.goto(`/organizations/${organization.id}/batch-exports/new`);
  await page.getByLabel('Name', { exact: true }).fill('x');
  await page.getByRole('button', { name: 'Create batch export' }).click();
  await expect(page.getByLabel('Bucket name')).toHaveAttribute('aria-invalid', 'true');
  await expectNoViolations(page);
});

/** A receiver on loopback (the e2e server allows it) whose answers the test decides. */
async function startReceiver(answer: (res: ServerResponse) => void) {
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/in`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One event at each of `times` in the organization's first project, through the ingestion endpoint. */
async function ingest(request: APIRequestContext, organization: Org, times: number[]) {
  const project = await (
    await request.get(`/api/projects/${organization.teams[0]!.id}/`, { headers: headers() })
  ).json();
  const response = await request.post('/batch/', {
    data: {
      api_key: project.api_token,
      batch: times.map((t, i) => ({
        event: 'e2e_retry',
        distinct_id: `e2e-${i}`,
        timestamp: new Date(t).toISOString(),
      })),
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test('Test connection in the form names the step that failed, and keeps what was typed', async ({ page }) => {
  const gone = await startReceiver((res) => res.end());
  await gone.close(); // nothing listens on its port any more
  const organization = await seededOrganization(page.request);
  await signInWithDemoLink(page, `/organizations/${organization.id}/batch-exports/new`);
  await page.getByLabel('Name', { exact: true }).fill('Refused webhook');
  await page.getByLabel('Destination type').selectOption('HTTP');
  await page.getByLabel('URL').fill(gone.url);
  await page.getByLabel('Token').fill('e2e-token');
  await page.getByRole('button', { name: 'Test connection' }).click();

  const steps = page.getByRole('list', { name: 'Connection test steps' });
  await expect(steps.getByRole('listitem')).toHaveText(/^Failed: Send an empty batch.*refused.*ECONNREFUSED/);
  await expect(page.getByText('Connection failed at “Send an empty batch”.')).toBeVisible();
  await expect(page.getByLabel('URL')).toHaveValue(gone.url);
  await expect(page.getByLabel('Token')).toHaveValue('e2e-token');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Refused webhook');
  await expect(page.getByRole('heading', { level: 1, name: 'New batch export' })).toBeVisible();
});

test('a failed run is retried from the runs table: a new run of its interval completes', async ({ page, request }) => {
  // Three delivery attempts, two and four seconds apart, before the run fails.
  test.slow();
  let status = 500;
  const receiver = await startReceiver((res) => res.writeHead(status).end());
  try {
    const organization = await seededOrganization(request);
    const end = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    await ingest(request, organization, [end - 30 * 60_000]);
    const name = uniqueName('E2E retry');
    const created = await createExport(request, organization.id, {
      name,
      interval: 'hour',
      paused: true,
      destination: { type: 'HTTP', config: { url: receiver.url, token: 't' } },
    });
    const backfill = await request.post(`/api/organizations/${organization.id}/batch_exports/${created.id}/backfill/`, {
      headers: headers(),
      data: { start_at: new Date(end - HOUR).toISOString(), end_at: new Date(end).toISOString() },
    });
    expect(backfill.status()).toBe(200);

    await signInWithDemoLink(page, `/organizations/${organization.id}/batch-exports/${created.id}`);
    const rows = page.getByRole('table', { name: /Runs, newest first/ }).locator('tbody tr');
    // Failed for good, not "Failed (will retry)" between its attempts.
    await expect(rows.first().getByText('Failed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(rows.first()).toContainText('answered 500');

    status = 200;
    await rows
      .first()
      .getByRole('button', { name: /^Retry the run of / })
      .click();
    await expect(page.getByText(/^Retry queued: a new run will export/)).toBeVisible();
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('Completed', { timeout: 30_000 });
    await expect(rows.nth(1)).toContainText('Failed');

    // The retry is a backfill of that one interval.
    await page.getByRole('tab', { name: 'Backfills' }).click();
    const backfills = page.getByRole('table', { name: 'Backfills, newest first' });
    await expect(backfills.locator('tbody tr')).toHaveCount(2);
    await expect(backfills.locator('tbody tr').first()).toContainText('Completed');
    await expect(backfills.locator('tbody tr').first()).toContainText('1 of 1 runs');
  } finally {
    await receiver.close();
  }
});

test('a backfill shows in its list with its progress, and is cancelled there', async ({ page, request }) => {
  // The receiver holds the first run's request: the backfill stays running until the test lets it go.
  test.slow(); // an axe run: several seconds on a loaded 2-core machine
  const held: Array<ServerResponse> = [];
  // Once let go, every request is answered: a held one that timed out meanwhile comes again as a retry.
  let released = false;
  const receiver = await startReceiver((res) => (released ? res.writeHead(200).end() : held.push(res)));
  try {
    const organization = await seededOrganization(request);
    const end = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
    const start = end - 5 * HOUR;
    await ingest(request, organization, [start + 10 * 60_000]);
    const name = uniqueName('E2E cancel');
    const created = await createExport(request, organization.id, {
      name,
      interval: 'hour',
      paused: true,
      destination: { type: 'HTTP', config: { url: receiver.url, token: 't' } },
    });
    await request.post(`/api/organizations/${organization.id}/batch_exports/${created.id}/backfill/`, {
      headers: headers(),
      data: { start_at: new Date(start).toISOString(), end_at: new Date(end).toISOString() },
    });

    await signInWithDemoLink(page, `/organizations/${organization.id}/batch-exports/${created.id}?tab=backfills`);
    const row = page.getByRole('table', { name: 'Backfills, newest first' }).locator('tbody tr');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Running');
    await expect(row).toContainText(/0 of 5 runs · [\d,]+ records/);
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '5');
    await expectNoViolations(page);

    await row.getByRole('button', { name: /^Cancel the backfill of / }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel this backfill?' });
    await expect(dialog).toContainText('runs not yet finished are cancelled');
    await dialog.getByRole('button', { name: 'Cancel backfill' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Cancelled');
    await expect(row.getByRole('button', { name: /^Cancel the backfill/ })).toHaveCount(0);

    // The run that was exporting finishes; the four waiting ones were cancelled.
    released = true;
    for (const res of held.splice(0)) res.writeHead(200).end();
    await page.getByRole('tab', { name: 'Runs' }).click();
    const runs = page.getByRole('table', { name: /Runs, newest first/ }).locator('tbody tr');
    await expect(runs.filter({ hasText: 'Cancelled' })).toHaveCount(4);
    await expect(runs.filter({ hasText: 'Completed' })).toHaveCount(1, { timeout: 20_000 });
  } finally {
    for (const res of held) res.writeHead(200).end();
    await receiver.close();
  }
});
