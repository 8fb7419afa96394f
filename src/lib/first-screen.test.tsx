import { render, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as FirstScreen from './first-screen';

// The module remembers that the first screen was drawn: each test starts a fresh app.
let AfterFirstScreen: typeof FirstScreen.AfterFirstScreen;
beforeEach(async () => {
  vi.resetModules();
  ({ AfterFirstScreen } = await import('./first-screen'));
});

function Screen() {
  return (
    <>
      <header>
        <AfterFirstScreen>
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
        <AfterFirstScreen stage={2}>
          <Seen name="actions" />
        </AfterFirstScreen>
        <AfterFirstScreen>
          <Seen name="breadcrumbs" />
        </AfterFirstScreen>
        <main>Batch exports</main>
      </>,
    );
    expect(order).toEqual([]);
    await screen.findByText('breadcrumbs');
    expect(screen.queryByText('actions')).toBeNull();
    await screen.findByText('actions');
    expect(order).toEqual(['breadcrumbs', 'actions']);
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
