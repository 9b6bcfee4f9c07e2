import { ShipmentsList } from '@/features/portal/components/ShipmentsList';

/** /portal: the customer's shipments. */
export default function PortalShipmentsPage() {
  return <ShipmentsList />;
}
