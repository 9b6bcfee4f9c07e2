// Toasts, loaded on demand: the react-toastify code and its CSS are fetched the first time
// a toast is shown, so the home page does not pay for them. The "unstyled" build is used
// because the default build injects a <style> element, which a strict Content-Security-Policy
// blocks; its CSS is bundled instead (components/layout/ToastContainerLazy.tsx).

import { createElement } from 'react';

export type ToastOptions = { toastId?: string; autoClose?: number | false };
type Kind = 'success' | 'error' | 'info' | 'warning';

let hostWanted = false;
const listeners = new Set<() => void>();

/** For ToastHost: mount the container once the first toast is asked for. */
export function subscribeToastHost(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isToastHostWanted(): boolean {
  return hostWanted;
}

function loadToastify() {
  return import('react-toastify/unstyled');
}

function wantHost(): void {
  if (hostWanted) return;
  hostWanted = true;
  listeners.forEach((listener) => listener());
}

/** Loads the toasts' code and mounts their container now, for a page that shows toasts without
 * signal later (the courier app). */
export function prepareToasts(): void {
  wantHost();
  void loadToastify().catch(() => undefined);
}

function show(kind: Kind, message: string, options?: ToastOptions): void {
  wantHost();
  // Toasts asked for before the container mounts are queued by react-toastify.
  void loadToastify()
    .then(({ toast: t }) => {
      // Its own direction, from its words: an Arabic toast (the account page) in the English back
      // office reads right to left, its full stop at its end.
      t[kind](createElement('span', { dir: 'auto' }, message), options);
    })
    .catch(() => undefined);
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
  warning: (message: string, options?: ToastOptions) => show('warning', message, options),
};
