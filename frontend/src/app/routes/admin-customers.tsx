import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { CustomersPage } from '@/features/admin-customers/components/CustomersPage';

/** /administration_and_development/customers: the companies that ship with the carrier. */
export default function AdminCustomersPage() {
  useDocumentTitle('Customers');
  const user = useOutletContext<User>();
  if (!may(user, Permission.customersRead)) return <NotPermitted />;
  return <CustomersPage canManage={may(user, Permission.customersManage)} />;
}
