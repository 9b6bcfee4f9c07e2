import { ShipmentView } from '@/features/portal/components/ShipmentView';

/** /portal/shipments/:id: one of the customer's shipments. */
export default function PortalShipmentPage() {
  return <ShipmentView />;
}
