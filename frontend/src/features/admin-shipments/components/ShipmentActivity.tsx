import { AuditEntryList } from '@/components/admin/AuditEntryList';
import { Spinner } from '@/components/ui/Spinner';
import { serverMessage } from '@/lib/rpc-errors';
import { useShipmentActivity } from '../api/shipments';
import { describeShipmentChange } from '../utils/shipment-fields';

/** Who changed this shipment, when and from where: its audit entries, newest first. */
export function ShipmentActivity({ shipmentId }: { shipmentId: string }) {
  const { data, error } = useShipmentActivity(shipmentId);

  if (error) {
    return (
      <p className="field-error" role="alert">
        {serverMessage(error, 'Failed to load the activity')}
      </p>
    );
  }
  const entries = data?.entries;
  if (entries === undefined) return <Spinner label="Loading activity…" />;
  if (entries.length === 0) return <p className="empty-state">No recorded activity.</p>;
  return <AuditEntryList entries={entries} label="Activity" describeShipmentChange={describeShipmentChange} />;
}
