import type { ReactNode } from 'react';
import type { User } from '@/gen/logistics/v1/user_pb';
import { Navigate, useLocation } from 'react-router-dom';
import { ShieldAlert } from 'lucide-react';
import { Spinner } from '@/components/ui/Spinner';
import { ADMIN_LOGIN_PATH, PORTAL_HOME_PATH } from '@/config/routes';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { hasOfficeAccess, isCustomerUser } from '@/config/permissions';
import { useLogout, useSession, useSessionRefresh } from '../hooks/use-session';

/**
 * The admin area's guard: a spinner while the session is restored, the login page without a
 * session, a short notice for a signed-in user without office access (the dashboard is never
 * rendered for them; the server refuses their calls anyway). A customer's user goes to the
 * portal. Staff of every role pass; each page shows only what their permissions allow.
 */
export function RequireStaff({ children }: { children: (user: User) => ReactNode }) {
  const session = useSession();
  const location = useLocation();
  useSessionRefresh();

  if (session.status === 'loading') {
    return (
      <div className="page-spinner admin-session-spinner">
        <Spinner size="lg" label="Checking your session…" />
      </div>
    );
  }
  if (session.status === 'signed-out') {
    return <Navigate to={ADMIN_LOGIN_PATH} replace state={{ from: location.pathname }} />;
  }
  if (isCustomerUser(session.user)) return <Navigate to={PORTAL_HOME_PATH} replace />;
  if (!hasOfficeAccess(session.user)) {
    return <NotAdminNotice email={session.user.email} />;
  }
  return children(session.user);
}

function NotAdminNotice({ email }: { email: string }) {
  useDocumentTitle('Administrator account required');
  const { logout, loggingOut } = useLogout();
  return (
    <section className="container not-admin" aria-labelledby="not-admin-heading">
      <ShieldAlert className="not-admin-icon" aria-hidden="true" size={48} />
      <h1 id="not-admin-heading">Administrator account required</h1>
      <p>
        You need an administrator account to use the dashboard. You are signed in as <strong>{email}</strong>.
      </p>
      <button type="button" className="btn btn-primary" onClick={logout} disabled={loggingOut}>
        {loggingOut ? 'Logging out...' : 'Log out'}
      </button>
    </section>
  );
}
