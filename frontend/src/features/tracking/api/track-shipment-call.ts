import { Code, ConnectError } from '@connectrpc/connect';
import { shipmentClient } from '@/lib/transport';
import { refusedLinkMessage, trackingErrorMessage } from '../utils/errors';
import { loadLastResult, saveLastResult } from '../utils/last-result';
import type { TrackOutcome } from './track-shipment';

/** A lookup that has not answered by then is treated as failed rather than left hanging. */
const TRACKING_TIMEOUT_MS = 15_000;

/** Whether the lookup got no answer from the server: offline, or the network in between failed
 * (navigator.onLine alone is not told of every such case). */
function unanswered(error: unknown): boolean {
  if (!navigator.onLine) return true;
  const { code } = ConnectError.from(error);
  return code === Code.Unknown || code === Code.Unavailable || code === Code.DeadlineExceeded;
}

/** The public lookup (NotFound if there is no such shipment), with the `access` token of an
 * e-mail link if there is one. A refused link still shows the shipment (the view anyone gets,
 * with why as `notice`). A success is kept for offline use (its LIMITED view);
 * offline, the kept result for this number answers instead of the failure. */
export async function callTrackShipment(
  trackingNumber: string,
  accessToken: string,
  signal: AbortSignal,
): Promise<TrackOutcome> {
  try {
    const lookup = (token: string) =>
      shipmentClient.getShipmentByTrackingNumber(
        { trackingNumber, accessToken: token },
        { signal, timeoutMs: TRACKING_TIMEOUT_MS },
      );
    let notice: string | undefined;
    let shipment;
    try {
      shipment = await lookup(accessToken);
    } catch (error) {
      const refused = accessToken ? refusedLinkMessage(error) : null;
      if (refused === null) throw error;
      notice = refused;
      shipment = await lookup('');
    }
    saveLastResult(shipment);
    return notice ? { shipment, notice } : { shipment };
  } catch (error) {
    if (signal.aborted) throw error;
    const saved = unanswered(error) ? loadLastResult(trackingNumber) : null;
    return saved ?? { failure: trackingErrorMessage(error) };
  }
}
