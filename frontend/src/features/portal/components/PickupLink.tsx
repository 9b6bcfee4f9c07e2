import { Link } from 'react-router-dom';
import { Truck } from 'lucide-react';
import { ShipmentStatus, type Shipment } from '@/gen/logistics/v1/shipment_pb';
import { portalPickupForPath } from '@/config/routes';
import { useMessages } from '@/lib/i18n';

/** "Request a pickup" for a pending shipment, the form opening with it ticked. */
export function PickupLink({ shipment }: { shipment: Shipment }) {
  const t = useMessages('portal');
  if (shipment.status !== ShipmentStatus.PENDING) return null;
  return (
    <Link to={portalPickupForPath(shipment.id)} className="btn btn-outline">
      <Truck aria-hidden="true" size={18} />
      {t('portal.pickups.request')}
    </Link>
  );
}
