// The browser's sign-in state, shared by the login page, the route guard and the admin bar: one
// TanStack query (GetSession), set by sign-in, sign-out and the transport's "session expired"
// signal, and asked again every few seconds while an admin page is visible.
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { User } from '@/gen/logistics/v1/user_pb';
import { ADMIN_LOGIN_PATH } from '@/config/routes';
import { notifySessionExpired, onSessionExpired } from '@/lib/session-events';
import { toast } from '@/lib/toast';
import { createSession, deleteSession, getSession } from '../api/session';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-in'; user: User }
  | { status: 'signed-out' };

const SESSION_KEY = ['admin-session'];
/** How often an open admin page asks whether the user's access changed. */
const REFRESH_MS = 5_000;
const SESSION_EXPIRED_MESSAGE = 'Your session has ended. Please sign in again.';
const LOGOUT_FAILED_MESSAGE = 'Failed to log out. Please try again.';

/** This browser's user, or null without a session. */
const sessionQuery = {
  queryKey: SESSION_KEY,
  queryFn: async ({ signal, client }: { signal: AbortSignal; client: QueryClient }): Promise<User | null> => {
    const user = await getSession(signal);
    // A session that ended on the server while this page showed it (expired, revoked, signed
    // out elsewhere) is said as an admin call's Unauthenticated is, not left unexplained.
    if (user === null && client.getQueryData(SESSION_KEY)) notifySessionExpired();
    return user;
  },
  // Asked once; then sign-in, sign-out, expiry and the refresh below keep it up to date.
  staleTime: Infinity,
};

/** The next user of this tab sees nothing this one loaded; the session itself reads `user`. */
function endSession(queryClient: QueryClient, user: User | null): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  queryClient.setQueryData(SESSION_KEY, user);
}

/** The sign-in state; the first use restores it from the session cookie. Unauthenticated, or a
 * gateway that cannot be reached, shows the login form either way. */
export function useSession(): SessionState {
  const { data, isError } = useQuery(sessionQuery);
  if (data) return { status: 'signed-in', user: data };
  if (data === null || isError) return { status: 'signed-out' };
  return { status: 'loading' };
}

/** Whether the session could not be asked for (no signal, the gateway unreachable), as opposed
 * to a known answer: the courier app then opens for the courier kept on the phone. */
export function useSessionUnreachable(): boolean {
  const { data, isError, fetchStatus } = useQuery(sessionQuery);
  return data === undefined && (isError || fetchStatus === 'paused');
}

/**
 * While this page is visible, asks again every 5 s, so a role or permissions changed by an admin
 * show here within seconds (the server applies them at once), and a session that ended shows the
 * login; an ask that fails on the way keeps what is shown (a network blip is not a sign-out). An
 * admin call answered Unauthenticated signs this page out too.
 */
export function useSessionRefresh(): void {
  useQuery({ ...sessionQuery, refetchInterval: REFRESH_MS });
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSessionExpired(() => {
        const wasSignedIn = Boolean(queryClient.getQueryData(SESSION_KEY));
        endSession(queryClient, null);
        if (wasSignedIn) toast.warning(SESSION_EXPIRED_MESSAGE, { toastId: 'session-expired' });
      }),
    [queryClient],
  );
}

/** Sign in (CreateSession; the gateway sets the HttpOnly cookie): the session is then this user. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ email, password }: { email: string; password: string }) => createSession(email, password),
    onSuccess: (user) => endSession(queryClient, user ?? null),
  });
}

/** Log out: DeleteSession, then the login page (the staff one, or the portal's). */
export function useLogout(loginPath = ADMIN_LOGIN_PATH): { logout: () => void; loggingOut: boolean } {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: deleteSession,
    onSuccess: () => {
      endSession(queryClient, null);
      navigate(loginPath, { replace: true });
    },
    onError: () => toast.error(LOGOUT_FAILED_MESSAGE),
  });
  // Still "logging out" once done: the page is leaving.
  const loggingOut = mutation.isPending || mutation.isSuccess;
  const logout = () => {
    if (!loggingOut) mutation.mutate();
  };
  return { logout, loggingOut };
}
