// The browser's sign-in state, shared by the login page, the route guard and the admin bar.
// Restored once from the session cookie (GetSession), then kept up to date by sign-in,
// sign-out and the transport's "session expired" signal.
import type { User } from '@/gen/logistics/v1/user_pb';
import { onSessionExpired } from '@/lib/session-events';
import { toast } from '@/lib/toast';
import { createSession, deleteSession, getSession } from '../api/session';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-in'; user: User }
  | { status: 'signed-out' };

const SESSION_EXPIRED_MESSAGE = 'Your session has ended. Please sign in again.';

let state: SessionState | { status: 'unknown' } = { status: 'unknown' };
const listeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const LOADING: SessionState = { status: 'loading' };

export function snapshot(): SessionState {
  return state.status === 'unknown' ? LOADING : state;
}

/** Asks the gateway once whether this browser has a session. */
export function restoreSession(): void {
  if (state.status !== 'unknown') return;
  setState(LOADING);
  getSession().then(
    (user) => setState(user ? { status: 'signed-in', user } : { status: 'signed-out' }),
    // Unauthenticated, or the gateway cannot be reached: show the login form either way.
    () => setState({ status: 'signed-out' }),
  );
}

/** Asks again, so a role or permissions changed by an admin show here within seconds (the
 * server applies them at once); a session that ended signs this page out. */
export function refreshSession(): void {
  if (state.status !== 'signed-in') return;
  const shown = state.user;
  getSession().then(
    (user) => {
      if (state.status !== 'signed-in' || state.user !== shown) return;
      if (!user) {
        setState({ status: 'signed-out' });
      } else if (
        user.role !== shown.role ||
        user.permissions.join() !== shown.permissions.join() ||
        user.name !== shown.name
      ) {
        setState({ status: 'signed-in', user });
      }
    },
    // Unauthenticated is reported by the transport (session expired); a network blip is not.
    () => undefined,
  );
}

export async function signIn(email: string, password: string): Promise<User | undefined> {
  const user = await createSession(email, password);
  setState(user ? { status: 'signed-in', user } : { status: 'signed-out' });
  return user;
}

export async function signOut(): Promise<void> {
  await deleteSession();
  setState({ status: 'signed-out' });
}


onSessionExpired(() => {
  if (state.status !== 'signed-in') return;
  setState({ status: 'signed-out' });
  toast.warning(SESSION_EXPIRED_MESSAGE, { toastId: 'session-expired' });
});
