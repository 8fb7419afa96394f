import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, setupTestApi } from '@testing';
import { ApiError } from '@/lib/api-client';

setupTestApi();

describe('an app that was closed', () => {
  it('no longer sends the page that replaced it to sign-in when one of its old requests answers 401', async () => {
    const old = renderApp('/invite/00000000-0000-4000-8000-000000000000#token=t');
    old.unmount();
    old.dispose();
    renderApp('/invite/00000000-0000-4000-8000-000000000001#token=t');
    expect(await screen.findByRole('heading', { name: 'Accept your invite' })).toBeInTheDocument();
    // A request of the closed app comes back rejected, as a key from an earlier server would be.
    await old.queryClient
      .fetchQuery({
        queryKey: ['late'],
        retry: false,
        queryFn: () => {
          throw new ApiError({
            status: 401,
            type: 'authentication_error',
            code: 'authentication_failed',
            detail: 'no',
          });
        },
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(window.location.pathname).toBe('/invite/00000000-0000-4000-8000-000000000001');
    expect(screen.getByRole('heading', { name: 'Accept your invite' })).toBeInTheDocument();
  });
});
