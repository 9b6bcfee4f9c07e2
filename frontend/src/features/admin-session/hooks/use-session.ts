import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import { ADMIN_LOGIN_PATH } from '@/config/routes';
import { toast } from '@/lib/toast';
import { restoreSession, signOut, snapshot, subscribe, type SessionState } from './session-store';

/** The sign-in state; the first use restores it from the session cookie. */
export function useSession(): SessionState {
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    restoreSession();
  }, []);
  return state;
}

const LOGOUT_FAILED_MESSAGE = 'Failed to log out. Please try again.';

/** Log out: DeleteSession, then the login page. */
export function useLogout(): { logout: () => Promise<void>; loggingOut: boolean } {
  const navigate = useNavigate();
  const [loggingOut, setLoggingOut] = useState(false);
  const logout = async () => {
    if (loggingOut) return;
    setLoggingOut(true);
    try {
      await signOut();
      navigate(ADMIN_LOGIN_PATH, { replace: true });
    } catch {
      toast.error(LOGOUT_FAILED_MESSAGE);
      setLoggingOut(false);
    }
  };
  return { logout, loggingOut };
}
