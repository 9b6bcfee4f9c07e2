import type { ReactNode } from 'react';
import type { User } from '@/gen/logistics/v1/user_pb';
import { Navigate } from 'react-router-dom';
import { Spinner } from '@/components/ui/Spinner';
import { isCustomerUser } from '@/config/permissions';
import { ADMIN_HOME_PATH, PORTAL_LOGIN_PATH } from '@/config/routes';
import { useSession, useSessionRefresh } from '../hooks/use-session';

/**
 * The portal's guard: a spinner while the session is restored, the portal's sign-in without a
 * session (or once it ends: a suspended customer's within 5 s), the back office for staff.
 */
export function RequireCustomer({ checking, children }: { checking: string; children: (user: User) => ReactNode }) {
  const session = useSession();
  useSessionRefresh();
  if (session.status === 'loading') {
    return (
      <div className="page-spinner admin-session-spinner">
        <Spinner size="lg" label={checking} />
      </div>
    );
  }
  if (session.status === 'signed-out') return <Navigate to={PORTAL_LOGIN_PATH} replace />;
  if (!isCustomerUser(session.user)) return <Navigate to={ADMIN_HOME_PATH} replace />;
  return children(session.user);
}
