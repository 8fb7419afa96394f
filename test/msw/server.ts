import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { handlers, resetMockApi } from './handlers';

export const server = setupServer(...handlers);

/** Call at the top of a test file: MSW on, a fresh seeded MockApi per test, overrides reset. */
export function setupMockApi(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    resetMockApi();
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}
