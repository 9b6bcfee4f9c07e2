import { useEffect, useState } from 'react';
import type { AuditEntry } from '@/gen/logistics/v1/audit_service_pb';
import { AuditEntryList } from '@/components/admin/AuditEntryList';
import { Spinner } from '@/components/ui/Spinner';
import { serverMessage } from '@/lib/rpc-errors';
import { listShipmentActivity } from '../api/shipments';

/** Who changed this shipment, when and from where: its audit entries, newest first. */
export function ShipmentActivity({ shipmentId }: { shipmentId: string }) {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    listShipmentActivity(shipmentId, controller.signal).then(
      (found) => setEntries(found),
      (err: unknown) => {
        if (!controller.signal.aborted) setError(serverMessage(err, 'Failed to load the activity'));
      },
    );
    return () => controller.abort();
  }, [shipmentId]);

  if (error) {
    return (
      <p className="field-error" role="alert">
        {error}
      </p>
    );
  }
  if (entries === null) return <Spinner label="Loading activity…" />;
  if (entries.length === 0) return <p className="empty-state">No recorded activity.</p>;
  return <AuditEntryList entries={entries} label="Activity" />;
}
