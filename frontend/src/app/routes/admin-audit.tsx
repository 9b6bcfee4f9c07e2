import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { AuditPage } from '@/features/admin-audit/components/AuditPage';
import { describeShipmentChange } from '@/features/admin-shipments/utils/shipment-fields';

/** /administration_and_development/audit: who changed what, when and from where. */
export default function AdminAuditPage() {
  useDocumentTitle('Audit log');
  const user = useOutletContext<User>();
  if (!may(user, Permission.auditRead)) return <NotPermitted />;
  return <AuditPage describeShipmentChange={describeShipmentChange} />;
}
