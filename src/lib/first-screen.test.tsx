import { render, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as FirstScreen from './first-screen';

// The module remembers that the first screen was drawn: each test starts a fresh app.
let AfterFirstScreen: typeof FirstScreen.AfterFirstScreen;
let FIRST_SCREEN: typeof FirstScreen.FIRST_SCREEN;
let DrawnLateProvider: typeof FirstScreen.DrawnLateProvider;
beforeEach(async () => {
  vi.resetModules();
  ({ AfterFirstScreen, FIRST_SCREEN, DrawnLateProvider } = await import('./first-screen'));
});

function Screen() {
  return (
    <>
      <header>
        <AfterFirstScreen stage={FIRST_SCREEN.navigation}>
          <button type="button">Sign out</button>
        </AfterFirstScreen>
      </header>
      <main>Batch exports</main>
    </>
  );
}

describe('AfterFirstScreen', () => {
  it('draws the page in the first render and its contents a task later', async () => {
    render(<Screen />);
    expect(screen.getByText('Batch exports')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument());
  });

  it('draws a second stage a task after the first', async () => {
    const order: string[] = [];
    const Seen = ({ name }: { name: string }) => {
      order.push(name);
      return <span>{name}</span>;
    };
    render(
      <>
        <AfterFirstScreen stage={FIRST_SCREEN.actions}>
          <Seen name="actions" />
        </AfterFirstScreen>
        <AfterFirstScreen stage={FIRST_SCREEN.navigation}>
          <Seen name="breadcrumbs" />
        </AfterFirstScreen>
        <main>
          <AfterFirstScreen stage={FIRST_SCREEN.page}>
            <Seen name="page" />
            <AfterFirstScreen stage={FIRST_SCREEN.table}>
              <Seen name="table" />
            </AfterFirstScreen>
          </AfterFirstScreen>
        </main>
      </>,
    );
    expect(order).toEqual([]);
    await screen.findByText('page');
    expect(screen.queryByText('table')).toBeNull();
    await screen.findByText('table');
    expect(screen.queryByText('breadcrumbs')).toBeNull();
    await screen.findByText('breadcrumbs');
    expect(screen.queryByText('actions')).toBeNull();
    await screen.findByText('actions');
    expect(order).toEqual(['page', 'table', 'breadcrumbs', 'actions']);
  });

  it('tells the provider each part it drew late, once the part is in the document, and nothing when drawn at once', async () => {
    const drawn = vi.fn(() => document.body.textContent);
    const page = (
      <DrawnLateProvider value={drawn}>
        <main>
          <AfterFirstScreen stage={FIRST_SCREEN.page}>
            Batch exports
            <AfterFirstScreen stage={FIRST_SCREEN.table}>, 6 rows</AfterFirstScreen>
          </AfterFirstScreen>
        </main>
      </DrawnLateProvider>
    );
    const first = render(page);
    expect(drawn).not.toHaveBeenCalled();
    await waitFor(() => expect(drawn).toHaveBeenCalledTimes(2));
    expect(drawn.mock.results.map((result) => result.value)).toEqual(['Batch exports', 'Batch exports, 6 rows']);
    first.rerender(page);
    expect(drawn).toHaveBeenCalledTimes(2);
    first.unmount();
    render(page);
    expect(document.body).toHaveTextContent('Batch exports, 6 rows');
    expect(drawn).toHaveBeenCalledTimes(2);
  });

  it('draws at once once the first screen is drawn (later pages, a remount)', async () => {
    const first = render(<Screen />);
    await screen.findByRole('button', { name: 'Sign out' });
    first.unmount();
    render(<Screen />);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('leaves nothing behind when the page goes before its task', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { unmount } = render(<Screen />);
    unmount();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).not.toHaveBeenCalled();
    // The task still ran: the next screen draws everything at once.
    render(<Screen />);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    errors.mockRestore();
  });
});
