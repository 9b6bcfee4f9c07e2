import { useDocumentTitle } from '@/hooks/use-document-title';
import { EmailTestButton } from '@/features/admin-emails/components/EmailTestButton';
import { ShipmentsDashboard } from '@/features/admin-shipments/components/ShipmentsDashboard';

/** /administration_and_development: the admin dashboard's shipments, and the e-mail test. */
export default function AdminShipmentsPage() {
  useDocumentTitle('Admin Dashboard');
  return <ShipmentsDashboard actions={<EmailTestButton />} />;
}
