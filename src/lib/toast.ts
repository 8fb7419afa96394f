import { createElement, useSyncExternalStore } from 'react';
import type * as SonnerModule from 'sonner';
import type { ExternalToast, ToasterProps } from 'sonner';

type Sonner = typeof SonnerModule;
type Message = Parameters<Sonner['toast']['success']>[0];

/*
 * Toasts, with sonner loaded when the first one is shown (or once the app has been idle a
 * while: preloadToasts): no page carries the library (about 9 kB gzip and its stylesheet) into
 * its chunk, fetches it before its first paint, or evaluates it before asking for its data. The
 * root layout mounts sonner's Toaster once the module is there; sonner keeps a toast made before
 * the Toaster subscribes and shows it when it does.
 */

let loading: Promise<Sonner> | null = null;
let loaded: Sonner | null = null;
const listeners = new Set<() => void>();

/** sonner, fetched once; a failed fetch (offline, a chunk gone after a deploy) is tried again next time. */
function load(): Promise<Sonner> {
  loading ??= import('sonner').then(
    (module) => {
      loaded = module;
      listeners.forEach((listener) => listener());
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

const show = (kind: 'success' | 'error') => (message: Message, options?: ExternalToast) => {
  load().then(
    ({ toast }) => toast[kind](message, options),
    (error: unknown) => console.warn('A toast could not be shown: its code did not load.', error),
  );
};

export const toast = { success: show('success'), error: show('error') };

/** Fetches sonner ahead of the first toast, so that one can still be shown when the network is gone by then. */
export function preloadToasts(): void {
  load().catch(() => undefined);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const readLoaded = () => loaded;

/** sonner's Toaster once sonner has loaded, else nothing: nothing here suspends or can fail to load. */
export function Toasts(props: ToasterProps) {
  const sonner = useSyncExternalStore(subscribe, readLoaded, readLoaded);
  return sonner ? createElement(sonner.Toaster, props) : null;
}
