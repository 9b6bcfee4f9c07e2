import { useDocumentTitle } from '@/hooks/use-document-title';
import { ShipmentsDashboard } from '@/features/admin-shipments/components/ShipmentsDashboard';

/** /administration_and_development: the admin dashboard's shipments. */
export default function AdminShipmentsPage() {
  useDocumentTitle('Admin Dashboard');
  return <ShipmentsDashboard />;
}
