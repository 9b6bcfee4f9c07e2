import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { EmailTestButton } from '@/features/admin-emails/components/EmailTestButton';
import { NeedsAttention } from '@/features/admin-exceptions/components/NeedsAttention';
import { ShipmentsDashboard } from '@/features/admin-shipments/components/ShipmentsDashboard';

/** /administration_and_development: the admin dashboard's shipments, what needs attention, and
 * the e-mail test. */
export default function AdminShipmentsPage() {
  useDocumentTitle('Admin Dashboard');
  const user = useOutletContext<User>();
  if (!may(user, Permission.shipmentsRead)) return <NotPermitted />;
  return (
    <ShipmentsDashboard
      actions={may(user, Permission.emailsSend) ? <EmailTestButton /> : undefined}
      attention={<NeedsAttention />}
      allowed={{
        create: may(user, Permission.shipmentsCreate),
        edit: may(user, Permission.shipmentsEdit),
        track: may(user, Permission.shipmentsTrack),
        remove: may(user, Permission.shipmentsDelete),
        labels: may(user, Permission.labelsPrint),
        dashboard: may(user, Permission.dashboardRead),
        activity: may(user, Permission.auditRead),
        export: may(user, Permission.shipmentsExport),
        import: may(user, Permission.shipmentsImport),
        recordProof: may(user, Permission.deliveriesRecord),
        customers: may(user, Permission.customersRead),
        assign: may(user, Permission.pickupsManage) && may(user, Permission.usersRead),
      }}
    />
  );
}
