import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('preloadable', () => {
  it('draws at once, with no fallback, once its module has been loaded', async () => {
    let loads = 0;
    const { Component, load } = preloadable(async () => {
      loads += 1;
      return { default: Hello };
    });
    await load();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Component name="Ada" />
      </Suspense>,
    );
    // Synchronously, in the first commit: no fallback was ever shown.
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
    expect(loads).toBe(1);
  });

  it('suspends like React.lazy when mounted before its module arrived, and loads it once', async () => {
    let loads = 0;
    let resolve: (m: { default: typeof Hello }) => void = () => undefined;
    const { Component, load } = preloadable(() => {
      loads += 1;
      return new Promise<{ default: typeof Hello }>((r) => (resolve = r));
    });
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Component name="Grace" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    void load();
    await act(async () => resolve({ default: Hello }));
    expect(await screen.findByText('Hello Grace')).toBeInTheDocument();
    expect(loads).toBe(1);
  });

  it('tries again after a failed download', async () => {
    let attempt = 0;
    const { load } = preloadable(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('offline');
      return { default: Hello };
    });
    await expect(load()).rejects.toThrow('offline');
    await expect(load()).resolves.toEqual({ default: Hello });
  });
});
