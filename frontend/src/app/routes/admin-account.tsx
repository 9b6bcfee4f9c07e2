import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { AccountPage } from '@/features/account/components/AccountPage';

/** /administration_and_development/account: every signed-in user's own, whatever their role. */
export default function AdminAccountPage() {
  const user = useOutletContext<User>();
  return <AccountPage user={user} />;
}
