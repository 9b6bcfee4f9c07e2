import { shipmentClient } from '@/lib/transport';
import { loadLastResult, saveLastResult } from '../utils/last-result';
import { trackingErrorMessage } from '../utils/shipment-display';
import type { TrackOutcome } from './track-shipment';

/** A lookup that has not answered by then is treated as failed rather than left hanging. */
const TRACKING_TIMEOUT_MS = 15_000;

/** The public lookup (NotFound if there is no such shipment), with the `access` token of an
 * e-mail link if there is one. A success is kept for offline use (its LIMITED view); offline,
 * the kept result for this number answers instead of the failure. */
export async function callTrackShipment(
  trackingNumber: string,
  accessToken: string,
  signal: AbortSignal,
): Promise<TrackOutcome> {
  try {
    const shipment = await shipmentClient.getShipmentByTrackingNumber(
      { trackingNumber, accessToken },
      { signal, timeoutMs: TRACKING_TIMEOUT_MS },
    );
    saveLastResult(shipment);
    return { shipment };
  } catch (error) {
    if (signal.aborted) throw error;
    const saved = navigator.onLine ? null : loadLastResult(trackingNumber);
    return saved ?? { failure: trackingErrorMessage(error) };
  }
}
