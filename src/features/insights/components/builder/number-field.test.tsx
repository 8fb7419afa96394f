import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { NumberField } from './number-field';

/** Changes the harness's state from outside, as Back does to a builder's URL. */
let setFromOutside: (value: number) => void = () => undefined;

/** The field over a state the test can also change from outside. */
function Harness() {
  const [value, setValue] = useState(10);
  useEffect(() => {
    setFromOutside = setValue;
  }, []);
  return (
    <>
      <NumberField label="Number of periods" value={value} min={1} max={100} onChange={setValue} />
      <output aria-label="state">{value}</output>
    </>
  );
}

describe('NumberField', () => {
  it('each whole number typed reaches the state; a broken entry stays in the box with its message', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const box = screen.getByRole('spinbutton', { name: 'Number of periods' });
    await user.clear(box);
    expect(box).toHaveValue(null);
    expect(box).toHaveAccessibleDescription('Enter a whole number from 1 to 100.');
    expect(screen.getByRole('status', { name: 'state' })).toHaveTextContent('10');
    await user.type(box, '6');
    expect(screen.getByRole('status', { name: 'state' })).toHaveTextContent('6');
  });

  it('when the state changes from outside while something is typed (Back), the box shows the state', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const box = screen.getByRole('spinbutton', { name: 'Number of periods' });
    await user.clear(box);
    await user.type(box, '6');
    expect(box).toHaveFocus();
    expect(screen.getByRole('status', { name: 'state' })).toHaveTextContent('6');
    // Back: the state is 10 again while the box still has focus.
    await act(() => setFromOutside(10));
    expect(box).toHaveValue(10);
    // And a broken entry gives way too.
    await user.clear(box);
    await act(() => setFromOutside(12));
    expect(box).toHaveValue(12);
    expect(box).not.toHaveAttribute('aria-invalid');
  });
});
