import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ImportPage } from '@/features/shipment-import/components/ImportPage';

/** /administration_and_development/import: shipments from a CSV file. */
export default function AdminImportPage() {
  useDocumentTitle('Import shipments');
  const user = useOutletContext<User>();
  if (!may(user, Permission.shipmentsImport)) return <NotPermitted />;
  return <ImportPage />;
}
