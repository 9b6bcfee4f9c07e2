import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { shipmentClient } from '@/lib/transport';

/** A lookup that has not answered by then is treated as failed rather than left hanging. */
export const TRACKING_TIMEOUT_MS = 15_000;

/** The public lookup: the shipment with this tracking number (NotFound if there is none). */
export function getShipmentByTrackingNumber(trackingNumber: string, signal?: AbortSignal): Promise<Shipment> {
  return shipmentClient.getShipmentByTrackingNumber(
    { trackingNumber },
    { signal, timeoutMs: TRACKING_TIMEOUT_MS },
  );
}
