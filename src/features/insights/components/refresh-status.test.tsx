import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Insight } from '@/contract/insights';
import { RefreshStatus } from './refresh-status';

const insight = (fields: Partial<Insight>) => ({ last_refresh: null, is_cached: false, ...fields }) as Insight;

describe('RefreshStatus', () => {
  it('says when the result was computed, the age outside the live region (a screen reader hears the state change, not each tick)', () => {
    const at = new Date(Date.now() - 3 * 60_000).toISOString();
    render(
      <RefreshStatus insight={insight({ last_refresh: at, is_cached: true })} refreshing={false} onRefresh={vi.fn()} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(/^Computed$/);
    expect(screen.getByText('3 minutes ago')).toHaveAttribute('datetime', at);
    expect(screen.getByText(/from cache/)).toBeInTheDocument();
  });

  it('announces the recomputing and a result never computed', () => {
    const { rerender } = render(
      <RefreshStatus insight={insight({ last_refresh: new Date().toISOString() })} refreshing onRefresh={vi.fn()} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Computing…');
    expect(screen.queryByText(/ago|now/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeDisabled();
    rerender(<RefreshStatus insight={insight({})} refreshing={false} onRefresh={vi.fn()} />);
    expect(screen.getByRole('status')).toHaveTextContent('Not computed yet');
  });
});
