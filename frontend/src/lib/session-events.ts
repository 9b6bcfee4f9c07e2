// "The server says this browser is no longer signed in", raised by the transport when an admin
// call answers Unauthenticated, so the admin session feature can send the user to the login page
// without the other admin features knowing about it.

const listeners = new Set<() => void>();

export function onSessionExpired(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifySessionExpired(): void {
  listeners.forEach((listener) => listener());
}
