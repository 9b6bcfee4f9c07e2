import { CheckCircle2, X } from 'lucide-react';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { formatDecimal, formatKg } from '@/utils/format';

/** Shown after a creation: the new tracking number and the totals the server computed. */
export function CreatedShipmentPanel({ shipment, onDismiss }: { shipment: Shipment; onDismiss: () => void }) {
  return (
    <section className="created-panel" role="status" aria-labelledby="created-heading">
      <CheckCircle2 className="created-icon" aria-hidden="true" size={28} />
      <div className="created-body">
        <h2 id="created-heading">
          Shipment created: <span className="mono">{shipment.trackingNumber}</span>
        </h2>
        <dl className="created-totals">
          <div>
            <dt>Tracking Number</dt>
            <dd className="mono">{shipment.trackingNumber}</dd>
          </div>
          <div>
            <dt>Total Volumetric Weight</dt>
            <dd>{formatKg(shipment.totalVolumetricWeightKg)}</dd>
          </div>
          <div>
            <dt>Total Volume</dt>
            <dd>{`${formatDecimal(shipment.totalVolumeCubicMetres, 4)} m³`}</dd>
          </div>
          <div>
            <dt>Total Actual Weight</dt>
            <dd>{formatKg(shipment.totalActualWeightKg)}</dd>
          </div>
        </dl>
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        <X aria-hidden="true" size={18} />
      </button>
    </section>
  );
}
