import { useOutletContext, useParams } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { CustomerPage } from '@/features/admin-customers/components/CustomerPage';

/** /administration_and_development/customers/:id: one customer, its users and its shipments. */
export default function AdminCustomerPage() {
  useDocumentTitle('Customer');
  const user = useOutletContext<User>();
  const { id = '' } = useParams();
  if (!may(user, Permission.customersRead)) return <NotPermitted />;
  return (
    <CustomerPage
      key={id}
      id={id}
      access={{
        manage: may(user, Permission.customersManage),
        users: may(user, Permission.usersRead),
        shipments: may(user, Permission.shipmentsRead),
      }}
    />
  );
}
