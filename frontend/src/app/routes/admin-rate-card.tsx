import { useOutletContext, useParams } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { RateCardPage } from '@/features/admin-rates/components/RateCardPage';

/** /administration_and_development/rates/:id: one rate card (`public` or a customer's id) to edit. */
export default function AdminRateCardPage() {
  useDocumentTitle('Rate card');
  const user = useOutletContext<User>();
  const { id = '' } = useParams();
  if (!may(user, Permission.ratesManage)) return <NotPermitted />;
  return <RateCardPage key={id} id={id} canReadCustomers={may(user, Permission.customersRead)} />;
}
