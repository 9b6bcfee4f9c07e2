import type { Shipment } from '@/gen/logistics/v1/shipment_pb';

/** A lookup that has not answered by then is treated as failed rather than left hanging. */
export const TRACKING_TIMEOUT_MS = 15_000;

/** The public lookup: the shipment with this tracking number (NotFound if there is none). The
 * Connect client loads with the first lookup, so /track's intro page does not wait for it. */
export async function getShipmentByTrackingNumber(trackingNumber: string, signal?: AbortSignal): Promise<Shipment> {
  const { shipmentClient } = await import('@/lib/transport');
  return shipmentClient.getShipmentByTrackingNumber({ trackingNumber }, { signal, timeoutMs: TRACKING_TIMEOUT_MS });
}
