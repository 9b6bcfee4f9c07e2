import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { PickupsPage } from '@/features/admin-pickups/components/PickupsPage';

/** /administration_and_development/pickups: the customers' pickups, by day and area. */
export default function AdminPickupsPage() {
  useDocumentTitle('Pickups');
  const user = useOutletContext<User>();
  if (!may(user, Permission.pickupsManage)) return <NotPermitted />;
  return <PickupsPage user={user} canListUsers={may(user, Permission.usersRead)} />;
}
