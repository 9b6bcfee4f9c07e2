import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { UsersPage } from '@/features/admin-users/components/UsersPage';

/** /administration_and_development/users. */
export default function AdminUsersPage() {
  useDocumentTitle('Users');
  const user = useOutletContext<User>();
  if (!may(user, Permission.usersRead)) return <NotPermitted />;
  return <UsersPage currentUserId={user.id} canManage={may(user, Permission.usersManage)} />;
}
