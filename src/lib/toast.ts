import { useSyncExternalStore } from 'react';
import type { ExternalToast, toast as sonnerToast } from 'sonner';

type Message = Parameters<typeof sonnerToast.success>[0];

/**
 * Toasts, with sonner loaded when the first one is shown: no page carries the library (about
 * 9 kB gzip and its stylesheet) into its chunk, fetches it before its first paint, or evaluates
 * it before asking for its data. The root layout mounts the Toaster once a toast has been asked
 * for (useToasterWanted); sonner keeps a toast made before the Toaster subscribes and shows it
 * when it does.
 */
const load = () => import('sonner');

let wanted = false;
const listeners = new Set<() => void>();

const show = (kind: 'success' | 'error') => (message: Message, options?: ExternalToast) => {
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  void load().then(({ toast }) => toast[kind](message, options));
};

export const toast = { success: show('success'), error: show('error') };

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const read = () => wanted;

/** Whether any toast has been asked for: the Toaster is mounted from then on. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(subscribe, read, read);
}
