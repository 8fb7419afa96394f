import { lazy, useState, type ComponentType } from 'react';

/**
 * A lazily loaded component that renders at once when its module is already there. React.lazy
 * suspends on its first render even when the import has long finished (it only learns of the
 * module by calling `load` then), which costs a fallback commit and a retry in a later task.
 * Here `load` (used for preloading too) keeps the module, and a component mounted after it
 * arrived draws it directly; one mounted before suspends as React.lazy does.
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const loadAndKeep = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = null; // a failed download may be tried again
        throw error;
      },
    ));
  const Lazy = lazy(loadAndKeep);
  function Preloadable(props: P) {
    // Chosen once per mount: switching between the two would remount the component.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return { Component: Preloadable, load: loadAndKeep };
}
