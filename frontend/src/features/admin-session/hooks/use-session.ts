import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { ADMIN_LOGIN_PATH } from '@/config/routes';
import { toast } from '@/lib/toast';
import { refreshSession, restoreSession, signOut, snapshot, subscribe, type SessionState } from './session-store';

/** How often an open admin page asks whether the user's access changed. */
const REFRESH_MS = 5_000;

/** The sign-in state; the first use restores it from the session cookie. */
export function useSession(): SessionState {
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    restoreSession();
  }, []);
  return state;
}

/** While this page is visible, follows changes to the signed-in user's role and permissions. */
export function useSessionRefresh(): void {
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') refreshSession();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
}

const LOGOUT_FAILED_MESSAGE = 'Failed to log out. Please try again.';

/** Log out: DeleteSession, then the login page. */
export function useLogout(): { logout: () => Promise<void>; loggingOut: boolean } {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [loggingOut, setLoggingOut] = useState(false);
  const logout = async () => {
    if (loggingOut) return;
    setLoggingOut(true);
    try {
      await signOut();
      // The next user of this tab sees nothing this one loaded.
      queryClient.clear();
      navigate(ADMIN_LOGIN_PATH, { replace: true });
    } catch {
      toast.error(LOGOUT_FAILED_MESSAGE);
      setLoggingOut(false);
    }
  };
  return { logout, loggingOut };
}
