import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Switch } from './switch';

function Owned() {
  const [on, setOn] = useState(false);
  return <Switch aria-label="Active" checked={on} onCheckedChange={setOn} />;
}

describe('Switch', () => {
  it('is a switch named by its label, which Space and clicks turn on and off', async () => {
    const user = userEvent.setup();
    render(<Owned />);
    const toggle = screen.getByRole('switch', { name: 'Active' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(toggle).toBeChecked();
    await user.keyboard(' ');
    expect(toggle).not.toBeChecked();
  });

  it('shows what its owner says: a click its owner has not taken up yet does not flip it', async () => {
    const user = userEvent.setup();
    const asked = vi.fn();
    render(<Switch aria-label="Shared" checked={false} onCheckedChange={asked} />);
    await user.click(screen.getByRole('switch', { name: 'Shared' }));
    expect(asked).toHaveBeenCalledWith(true);
    expect(screen.getByRole('switch', { name: 'Shared' })).not.toBeChecked();
  });

  it('does nothing when disabled', async () => {
    const user = userEvent.setup();
    const asked = vi.fn();
    render(<Switch aria-label="Locked" checked disabled onCheckedChange={asked} />);
    await user.click(screen.getByRole('switch', { name: 'Locked' }));
    expect(asked).not.toHaveBeenCalled();
    expect(screen.getByRole('switch', { name: 'Locked' })).toBeChecked();
  });
});
