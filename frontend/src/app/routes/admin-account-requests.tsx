import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { AccountRequestsPage } from '@/features/admin-customers/components/AccountRequestsPage';

/** /administration_and_development/customers/requests: visitors' requests for an account. */
export default function AdminAccountRequestsPage() {
  useDocumentTitle('Account requests');
  const user = useOutletContext<User>();
  if (!may(user, Permission.customersRead)) return <NotPermitted />;
  return <AccountRequestsPage canManage={may(user, Permission.customersManage)} />;
}
