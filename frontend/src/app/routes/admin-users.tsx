import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { UsersPage } from '@/features/admin-users/components/UsersPage';

/** /administration_and_development/users. */
export default function AdminUsersPage() {
  useDocumentTitle('Users');
  const user = useOutletContext<User>();
  return <UsersPage currentUserId={user.id} />;
}
