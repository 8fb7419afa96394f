import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TICK_MS } from '@/lib/clock';
import { formatDateTime } from '@/lib/dates';
import { RelativeTime } from './relative-time';

describe('RelativeTime', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('keeps counting while it is shown: "now" becomes "1 minute ago", then "2 hours ago"', () => {
    render(<RelativeTime value="2026-03-01T12:00:00Z" />);
    const time = screen.getByText('now');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', '2026-03-01T12:00:00Z');
    act(() => {
      vi.advanceTimersByTime(4 * TICK_MS);
    });
    expect(time).toHaveTextContent('1 minute ago');
    act(() => {
      vi.advanceTimersByTime(2 * 3600_000);
    });
    expect(time).toHaveTextContent('2 hours ago');
  });

  it('carries the exact date and time in its title, and a new value replaces it', async () => {
    const { rerender } = render(<RelativeTime value="2026-03-01T11:00:00Z" />);
    const time = screen.getByText('1 hour ago');
    await waitFor(() => expect(time).toHaveAttribute('title', formatDateTime('2026-03-01T11:00:00Z')));
    expect(time.getAttribute('title')).toMatch(/2026/);
    rerender(<RelativeTime value="2026-02-28T12:00:00Z" />);
    expect(screen.getByText('yesterday')).toBe(time);
    await waitFor(() => expect(time).toHaveAttribute('title', formatDateTime('2026-02-28T12:00:00Z')));
  });

  it('ticks at once when the tab comes back to the front', () => {
    render(<RelativeTime value="2026-03-01T12:00:00Z" />);
    // A background tab's timers are slowed: the clock moved, no tick ran.
    vi.setSystemTime(new Date('2026-03-01T12:10:00Z'));
    expect(screen.getByText('now')).toBeInTheDocument();
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(screen.getByText('10 minutes ago')).toBeInTheDocument();
  });

  it('runs one timer for every relative time on the page, and none once they are gone', () => {
    const { unmount } = render(
      <>
        <RelativeTime value="2026-03-01T11:59:00Z" />
        <RelativeTime value="2026-02-28T12:00:00Z" />
      </>,
    );
    expect(vi.getTimerCount()).toBe(1);
    expect(screen.getByText('1 minute ago')).toBeInTheDocument();
    expect(screen.getByText('yesterday')).toBeInTheDocument();
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
