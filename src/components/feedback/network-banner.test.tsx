import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { organizationEndpoints } from '@/contract/organizations';
import { HEDGEBOX, mswServer, override, renderApp, serverErrorResponse, setupTestApi } from '@testing';

const api = setupTestApi();

describe('network banner', () => {
  it('says the server ran into a problem while a query retries a 5xx, and goes away when it answers', async () => {
    let calls = 0;
    override(organizationEndpoints.list, () => {
      calls += 1;
      return calls === 1 ? serverErrorResponse(503) : undefined; // then on to the server
    });
    renderApp('/organizations', { apiKey: api().demoKey });
    expect(await screen.findByText('The server ran into a problem — retrying…')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: HEDGEBOX }, { timeout: 4000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/retrying/)).not.toBeInTheDocument());
    expect(calls).toBeGreaterThanOrEqual(2);
  });

  it('says the server cannot be reached while a query retries a request that got no answer', async () => {
    let calls = 0;
    override(organizationEndpoints.list, () => {
      calls += 1;
      return calls === 1 ? HttpResponse.error() : undefined; // no answer, then on to the server
    });
    renderApp('/organizations', { apiKey: api().demoKey });
    expect(await screen.findByText("Can't reach the server — retrying…")).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: HEDGEBOX }, { timeout: 4000 })).toBeInTheDocument();
  });

  it('does not retry a 4xx: the error shows at once, in words, with Try again', async () => {
    let calls = 0;
    override(organizationEndpoints.list, ({ request }) => {
      // The page's list (the sidebar's switcher asks for another page size).
      if (new URL(request.url).searchParams.get('limit') === '20') calls += 1;
      return HttpResponse.json(
        { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null },
        { status: 404 },
      );
    });
    const { user } = renderApp('/organizations', { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(screen.queryByText(/retrying/)).not.toBeInTheDocument();
    expect(calls).toBe(1);
    mswServer.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: HEDGEBOX })).toBeInTheDocument();
  });
});
