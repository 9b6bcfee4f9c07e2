import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { RatesPage } from '@/features/admin-rates/components/RatesPage';

/** /administration_and_development/rates: the public rate card and the customers' own. */
export default function AdminRatesPage() {
  useDocumentTitle('Rates');
  const user = useOutletContext<User>();
  if (!may(user, Permission.ratesManage)) return <NotPermitted />;
  return <RatesPage canPickCustomer={may(user, Permission.customersRead)} />;
}
