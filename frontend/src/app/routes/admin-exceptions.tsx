import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ExceptionsPage } from '@/features/admin-exceptions/components/ExceptionsPage';
import { ShipmentNotes } from '@/features/admin-shipments/components/ShipmentNotes';

/** /administration_and_development/exceptions: the shipments that need attention. */
export default function AdminExceptionsPage() {
  useDocumentTitle('Exceptions');
  const user = useOutletContext<User>();
  if (!may(user, Permission.shipmentsRead)) return <NotPermitted />;
  return (
    <ExceptionsPage
      user={user}
      canManage={may(user, Permission.exceptionsManage)}
      canListUsers={may(user, Permission.usersRead)}
      notesOf={(shipmentId) => <ShipmentNotes shipmentId={shipmentId} canAdd={may(user, Permission.shipmentsTrack)} />}
    />
  );
}
