import { useSession } from '@/features/admin-session/hooks/use-session';
import { UsersPage } from '@/features/portal/components/UsersPage';

/** /portal/users: customer admins manage the customer's users; others are told they cannot. */
export default function PortalUsersPage() {
  const session = useSession();
  // The layout's guard shows pages to a signed-in customer's user only.
  return session.status === 'signed-in' ? <UsersPage user={session.user} /> : null;
}
